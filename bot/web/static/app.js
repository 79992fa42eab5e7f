// The live table: one WebSocket to the server, which sends what this viewer may see and
// the moves they may make (no rule lives here). Every URL is relative to the page, so it
// works under a proxy's path prefix as well.
import { bySuit, cardButton, cardFace, showCards } from "./cards.js";

const $ = (id) => document.getElementById(id);
const page = new URL(location.href);
const LOG_KEPT = 30;
let nextLine = 1; // the number of the log's next line (the server numbers each frame's first)

let strings = {};
let state = null; // the last state frame
let last = -1; // the turn of the last state shown
let chosen = new Set(); // positions of the chosen cards (a choice of cards to play)
let suitOrder = false;
let waiting = false; // a move was sent and its answer is not in yet
let socket = null;
let retry = 500;
let countdown = null;
let cleared = false; // this connection's first frames were looked at for a fresh start
let signedOut = false; // the sign-in ended (a revoked link, an expired session): no retry
let watchingOut = false; // out of the match, the player chose to watch the rest
let tapped = -1; // the turn a one-tap move was sent for: a second tap then sends nothing

/** A string of the page in the viewer's language, with its {params}. */
function tr(key, params = {}) {
  const text = strings[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}

function connect() {
  const url = new URL("ws", page);
  url.protocol = page.protocol === "https:" ? "wss:" : "ws:";
  url.search = page.search;
  url.hash = "";
  if (last >= 0) url.searchParams.set("since", String(last));
  socket = new WebSocket(url);
  socket.addEventListener("message", (message) => receive(JSON.parse(message.data)));
  socket.addEventListener("open", () => {
    retry = 500;
    $("conn").textContent = "";
  });
  socket.addEventListener("close", () => {
    if (signedOut) return;
    $("conn").textContent = tr("web.reconnecting");
    waiting = false;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 2000);
  });
}

function send(frame) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify(frame));
}

function receive(frame) {
  switch (frame.t) {
    case "hello":
      cleared = false;
      strings = frame.strings;
      document.documentElement.lang = frame.lang;
      labelPage();
      break;
    case "state":
      showState(frame);
      break;
    case "log":
      addLog(frame);
      break;
    case "refused":
      waiting = false;
      tapped = -1;
      notice(frame.text);
      document.body.dataset.refusals = String(Number(document.body.dataset.refusals ?? 0) + 1);
      break;
    case "hint":
      showHint(frame);
      break;
    case "absent":
      $("turn").textContent = frame.text;
      break;
    case "signed_out":
      signedOut = true;
      $("you").hidden = true;
      $("conn").textContent = frame.text;
      notice(frame.text);
      break;
  }
}

function labelPage() {
  $("table-h").textContent = tr("web.table");
  $("you-h").textContent = tr("web.your_hand");
  $("log-h").textContent = tr("web.log");
  $("result-h").textContent = tr("web.result");
  $("board-h").textContent = tr("web.board");
  deckButton();
}

function deckButton() {
  const four = localStorage.getItem("deucebot.deck") === "four";
  document.body.classList.toggle("four-colour", four);
  $("deck").textContent = tr("web.deck.four");
  $("deck").setAttribute("aria-pressed", String(four));
}

$("deck").addEventListener("click", () => {
  const four = localStorage.getItem("deucebot.deck") === "four";
  localStorage.setItem("deucebot.deck", four ? "two" : "four");
  deckButton();
});

function notice(text) {
  $("notice").textContent = text;
}

/** A fresh start (the server's journal did not reach back): the old log goes, once. */
function clearIfFresh(frame) {
  if (frame.fresh && !cleared) {
    $("log").replaceChildren();
    nextLine = 1;
  }
  cleared = true;
}

function addLog(frame, result = frame.result) {
  clearIfFresh(frame);
  const list = $("log");
  // Each line keeps its number (the server's, the same on every page of this viewer's
  // audience) while older lines leave the list and after a reload.
  nextLine = frame.first ?? nextLine;
  for (const line of frame.lines) {
    const item = document.createElement("li");
    item.textContent = line;
    item.value = nextLine++;
    list.append(item);
  }
  while (list.children.length > LOG_KEPT) list.firstElementChild.remove();
  // Only the log's own box scrolls: scrollIntoView would scroll the page too, taking the
  // hand and the moves off a phone's screen at every event.
  list.scrollTop = list.scrollHeight;
  if (result) {
    $("result").hidden = false;
    // Named by its deal: it stays on show while the next deal is played.
    $("result-h").textContent = state
      ? tr("web.result.deal", { unit: state.unit, deal: state.deal })
      : tr("web.result");
    const lines = $("result-lines");
    lines.replaceChildren(
      ...frame.lines.map((line) => {
        const item = document.createElement("li");
        item.textContent = line;
        return item;
      }),
    );
  }
}

function showState(frame) {
  clearIfFresh(frame);
  const moved = frame.n !== last;
  state = frame;
  last = frame.n;
  document.body.dataset.turn = String(frame.n);
  waiting = false;
  if (moved) {
    chosen = new Set();
    notice("");
  }
  document.title = `${frame.title} · Deucebot`;
  $("title").textContent = frame.title;
  $("alt").textContent = frame.alt;
  $("board").textContent = frame.board;
  showSeats(frame);
  showCards($("table-cards"), frame.table_cards.map(cardFace));
  $("turn").textContent = frame.turn_text;
  $("summary").textContent = frame.summary;
  $("live-pot").textContent = frame.live_pot;
  startTimer(frame.time_left);
  if (frame.status === "finished") $("result").hidden = false;
  showHand(moved);
}

function showSeats(frame) {
  const picture = frame.picture;
  $("header").textContent = picture?.header ?? "";
  $("play").textContent = [picture?.play, picture?.note].filter(Boolean).join(" · ");
  $("banner").textContent = picture?.banner ?? "";
  $("pots").replaceChildren(
    ...(picture?.pots ?? []).map((pot) => {
      const item = document.createElement("li");
      item.textContent = `${pot.label}: ${pot.amount}`;
      return item;
    }),
    ...(picture?.stakes ?? []).map((line) => {
      const item = document.createElement("li");
      item.textContent = line;
      return item;
    }),
  );
  $("seats").replaceChildren(
    ...frame.seats.map((seat, i) => {
      const plate = picture?.seats[i];
      const item = document.createElement("li");
      const name = document.createElement("strong");
      name.textContent = seat.name;
      item.append(name);
      if (seat.ai) item.append(" ", tag(tr("web.seat.ai")));
      if (seat.away) item.append(" ", tag(tr("web.seat.away")));
      if (plate?.holding) item.append(backs(plate.holding));
      for (const figure of plate?.figures ?? []) item.append(line(figure));
      const tags = plate?.tags ?? [];
      if (tags.length) item.append(line(tags.join(" · "), "tags"));
      if (i === frame.seat) item.classList.add("mine");
      if (plate?.winner) item.classList.add("winner");
      if (i === frame.to_act && frame.status === "playing") {
        item.classList.add("to-act");
        item.setAttribute("aria-current", "true");
      }
      return item;
    }),
  );
}

function line(text, kind = "figure") {
  const span = document.createElement("span");
  span.className = kind;
  span.textContent = text;
  return span;
}

/** A seat's cards held face down, drawn as small backs (the alt text says who is in). */
function backs(count) {
  const row = document.createElement("span");
  row.className = "backs";
  row.setAttribute("aria-hidden", "true");
  row.append(...Array.from({ length: count }, () => document.createElement("i")));
  return row;
}

function tag(text) {
  const span = document.createElement("span");
  span.className = "tag";
  span.textContent = text;
  return span;
}

function startTimer(seconds) {
  clearInterval(countdown);
  const timer = $("timer");
  if (seconds === null || seconds === undefined) {
    timer.textContent = "";
    return;
  }
  const end = Date.now() + seconds * 1000;
  const tick = () => {
    const left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
    timer.textContent = tr("web.time_left", { seconds: left });
    if (left === 0) clearInterval(countdown);
  };
  tick();
  countdown = setInterval(tick, 1000);
}

function order(hand) {
  return suitOrder ? bySuit(hand) : hand.map((_, i) => i);
}

/** The key of the focused control of the hand's section (null: focus is elsewhere). */
function focusedKey() {
  const active = document.activeElement;
  return $("you").contains(active) ? active.dataset.key ?? null : null;
}

/** Focus goes back to the rebuilt control of `key`, else to the hand's heading (a rebuilt
 * control is a new element: without this a keyboard user would start again from the top). */
function refocus(key) {
  if (key === null) return;
  const again = [...$("you").querySelectorAll("[data-key]")].find(
    (control) => control.dataset.key === key && !control.disabled && control.offsetParent,
  );
  (again ?? $("you-h")).focus({ preventScroll: true });
}

/** The viewer's hand and controls; `moved`: the state is a new turn's. */
function showHand(moved = false) {
  const frame = state;
  const you = $("you");
  you.hidden = frame.seat === null;
  if (frame.seat === null) return;
  const key = focusedKey();
  showOut(frame.out);
  const controls = frame.controls;
  const pick = controls.pick;
  $("pick-prompt").textContent = pick ? pick.prompt : "";
  const tap = oneTap(pick);
  showCards(
    $("hand"),
    order(frame.hand).map((i) => {
      const card = frame.hand[i];
      const button = tap
        ? cardButton(card, { describe: `${pick.label} ${card.name}` })
        : cardButton(card, { pressed: chosen.has(i), disabled: !pick });
      button.dataset.key = `card:${card.code}`;
      if (card.locked) {
        button.classList.add("locked");
        button.title = tr("web.card.locked");
      }
      button.addEventListener("click", () => (tap ? pickNow(pick, card) : toggle(i)));
      return button;
    }),
  );
  $("hand-text").textContent = frame.hand_text;
  showTools(frame);
  showMoves(frame);
  showRaise(controls.raise, moved);
  showRebuy(controls.rebuy);
  refocus(key);
}

/** Out of the match while the others play on: the line saying so and, on the local
 * table, Watch (the table goes on as it is) and New match (the terminal's watch / new).
 * Shown above the table, where the AI's hands going on do not move it under a finger. */
function showOut(out) {
  $("out").hidden = !out;
  if (!out) {
    watchingOut = false;
    return;
  }
  $("out-line").textContent = watchingOut ? out.watching : out.line;
  $("watch").hidden = !out.watch || watchingOut;
  $("watch").textContent = out.watch ?? "";
  $("new-match").hidden = !out.new;
  $("new-match").textContent = out.new ?? "";
}

$("watch").addEventListener("click", () => {
  watchingOut = true;
  showOut(state.out);
  $("new-match").focus({ preventScroll: true });
});
$("new-match").addEventListener("click", () => act({ t: "new" }));

/** A choice of one card (the duel's lock): a tap on a card makes the move at once. */
function oneTap(pick) {
  return Boolean(pick) && pick.most === 1;
}

/** The one-card move of a tap; a second tap before the answer sends nothing (`act`). */
function pickNow(pick, card) {
  if (tapped === state.n) return;
  tapped = state.n;
  act({ t: "pick", verb: pick.verb, cards: [card.code] });
}

function toggle(i) {
  const pick = state.controls.pick;
  if (!pick) return;
  if (chosen.has(i)) chosen.delete(i);
  else if (pick.most === 1) chosen = new Set([i]);
  else if (chosen.size < pick.most) chosen.add(i);
  showHand();
}

function button(label, onClick, extra = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.disabled = extra.disabled ?? false;
  if (extra.pressed !== undefined) b.setAttribute("aria-pressed", String(extra.pressed));
  if (extra.action) b.dataset.action = extra.action;
  if (extra.key) b.dataset.key = extra.key;
  b.addEventListener("click", onClick);
  return b;
}

function showTools(frame) {
  const tools = [];
  if (frame.hand.length > 1) {
    tools.push(
      button(strings["web.sort"] ?? "Sort", () => {
        suitOrder = !suitOrder;
        showHand();
      }, { pressed: suitOrder, key: "sort" }),
    );
  }
  if (frame.hint) tools.push(button(frame.hint, () => send({ t: "hint" }), { key: "hint" }));
  if (frame.autopass) {
    const on = frame.autopass.on;
    tools.push(
      button(frame.autopass.label, () => send({ t: "autopass", on: !on }), {
        pressed: on,
        key: "autopass",
      }),
    );
  }
  $("tools").replaceChildren(...tools);
}

function act(frame) {
  if (waiting) return;
  waiting = true;
  send({ ...frame, turn: state.n });
}

function showMoves(frame) {
  const controls = frame.controls;
  const buttons = [];
  const pick = controls.pick;
  if (pick && !oneTap(pick)) {
    const cards = [...chosen].sort((a, b) => a - b).map((i) => frame.hand[i]);
    const label = cards.length ? `${pick.label} ${cards.map((c) => c.name).join(" ")}` : pick.label;
    buttons.push(
      button(label, () => act({ t: "pick", verb: pick.verb, cards: cards.map((c) => c.code) }), {
        disabled: cards.length < Math.max(1, pick.fewest),
        key: "pick",
      }),
    );
  }
  for (const move of controls.moves) {
    buttons.push(
      button(move.label, () => act({ t: "act", action: move.action }), {
        action: move.action,
        key: `move:${move.action}`,
      }),
    );
  }
  $("moves").replaceChildren(...buttons);
}

/** The raise's field and slider; a new turn starts them again at its least amount. */
function showRaise(raise, moved) {
  const form = $("raise");
  form.hidden = !raise;
  if (!raise) return;
  const amount = $("raise-amount");
  const slider = $("raise-slider");
  $("raise-label").textContent = raise.field;
  for (const input of [amount, slider]) {
    input.min = String(raise.low);
    input.max = String(raise.high);
  }
  const value = Number(amount.value);
  if (moved || !amount.value || value < raise.low || value > raise.high) {
    amount.value = String(raise.low);
  }
  slider.value = amount.value;
  form.dataset.verb = raise.verb;
  raiseButton();
}

/** The raise's button says the amount it will send ("Raise to 140"), as Call 20 does. */
function raiseButton() {
  const amount = $("raise-amount").value.trim();
  $("raise-go").textContent = [state.controls.raise?.label, amount].filter(Boolean).join(" ");
}

$("raise-slider").addEventListener("input", () => {
  $("raise-amount").value = $("raise-slider").value;
  raiseButton();
});
$("raise-amount").addEventListener("input", () => {
  $("raise-slider").value = $("raise-amount").value;
  raiseButton();
});
$("raise").addEventListener("submit", (e) => {
  e.preventDefault();
  act({ t: "raise", verb: $("raise").dataset.verb, amount: $("raise-amount").value });
});

function showRebuy(rebuy) {
  const form = $("rebuy");
  form.hidden = !rebuy;
  if (!rebuy) return;
  $("rebuy-ask").textContent = rebuy.ask;
  $("rebuy-label").textContent = rebuy.choose;
  $("rebuy-go").textContent = rebuy.label;
  $("sit-out").textContent = rebuy.sit_out;
  const select = $("rebuy-caves");
  const words = rebuy.caves.join("\n");
  if (select.dataset.words !== words) {
    select.dataset.words = words;
    select.replaceChildren(...rebuy.caves.map((text, i) => new Option(text, String(i + 1))));
  }
}

$("rebuy").addEventListener("submit", (e) => {
  e.preventDefault();
  act({ t: "rebuy", caves: $("rebuy-caves").value });
});
$("sit-out").addEventListener("click", () => act({ t: "rebuy", caves: "sitout" }));

function showHint(frame) {
  notice(tr("web.hint", { move: frame.label }));
  const pick = state?.controls.pick;
  if (pick && frame.cards.length) {
    const wanted = frame.cards.map((c) => c.code);
    chosen = new Set();
    state.hand.forEach((card, i) => {
      const at = wanted.indexOf(card.code);
      if (at >= 0) {
        chosen.add(i);
        wanted.splice(at, 1);
      }
    });
    showHand();
  }
}

connect();
