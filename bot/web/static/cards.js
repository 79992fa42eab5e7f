// Cards as the page draws them: a card is a real <button> named as the game writes it
// (e.g. "10♠"); its colour comes from its suit letter (the four-colour deck is CSS).

/** A card button for `card` ({code, name, suit}); `pressed` null: not a toggle;
 * `describe`: what a tap does ("Lock 5♥"), its description (the name stays the card's). */
export function cardButton(card, { pressed = null, disabled = false, describe = null } = {}) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `card suit-${card.suit}`;
  button.textContent = card.name;
  button.dataset.code = card.code;
  if (pressed !== null) button.setAttribute("aria-pressed", String(pressed));
  if (describe) {
    button.title = describe;
    button.setAttribute("aria-description", describe);
  }
  button.disabled = disabled;
  return button;
}

/** A card shown on the table (not a control): text the screen reader reads as is. */
export function cardFace(card) {
  const face = document.createElement("span");
  face.className = `card suit-${card.suit}`;
  face.textContent = card.name;
  face.dataset.code = card.code;
  return face;
}

/** Show `cards` (elements from cardButton or cardFace) in `box`: only those it did not
 * already show are marked dealt (animated), so a redraw does not flash the whole hand. */
export function showCards(box, cards) {
  const shown = new Set([...box.children].map((card) => card.dataset.code));
  for (const card of cards) card.classList.toggle("dealt", !shown.has(card.dataset.code));
  box.replaceChildren(...cards);
}

const SUITS = { d: 0, c: 1, h: 2, s: 3 };

/** The hand's positions grouped by suit (the game's order kept inside each suit). */
export function bySuit(hand) {
  return hand
    .map((card, i) => [card, i])
    .sort((a, b) => SUITS[a[0].suit] - SUITS[b[0].suit] || a[1] - b[1])
    .map(([, i]) => i);
}
