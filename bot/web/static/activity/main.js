// The Activity's bootstrap: Discord's Embedded App SDK signs the member in, then the table
// page takes over. ready -> authorize (scope identify) -> POST .proxy/api/token (the bot
// exchanges the code with its client secret and reads the SDK's instance from Discord: the
// channel is the instance's, never this page's word) -> authenticate -> the table page. Every
// request is relative and under .proxy/, so it goes through Discord's proxy; the words shown
// on a refusal come from the server, in the member's language.
import { DiscordSDK } from "./vendor/discord-sdk.mjs";

const status = document.getElementById("status");

function refuse(error, message) {
  document.body.dataset.state = "refused";
  document.body.dataset.error = error;
  status.textContent = message;
}

async function exchange(code, instanceId) {
  const answer = await fetch(".proxy/api/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, instance_id: instanceId }),
  });
  return { ok: answer.ok, body: await answer.json() };
}

async function start() {
  const clientId = document.querySelector('meta[name="deucebot-client-id"]').content;
  const sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  await sdk.ready();
  document.body.dataset.state = "authorizing";
  let code = null;
  try {
    ({ code } = await sdk.commands.authorize({
      client_id: clientId,
      response_type: "code",
      state: "",
      prompt: "none",
      scope: ["identify"],
    }));
  } catch (refused) {
    code = null; // the member said no: the server says so in their language
  }
  const { ok, body } = await exchange(code, sdk.instanceId);
  if (!ok) {
    refuse(body.error, body.message);
    return;
  }
  try {
    await sdk.commands.authenticate({ access_token: body.access_token });
  } catch (failed) {
    refuse("token_expired", body.refusals.token_expired);
    return;
  }
  document.body.dataset.state = "signed-in";
  window.location.assign(".proxy/" + body.table);
}

start().catch((error) => refuse("discord_unreachable", String(error)));
