// A boardgame.io stand-in for Tulip Bubble random play: 4 players, prices on 7-level tracks
// for 5 colours, cash and holdings per player, a round counter. Each turn the current player
// makes one `act` move, a choice among up to 11 options (pass, buy a colour, sell a colour);
// the turn then passes in boardgame.io's standard order, and the match ends after 60 moves.
// The rules cost microseconds: what a bench of this game measures is the framework.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { INVALID_MOVE } = require('boardgame.io/core');

export const GAME_NAME = 'tulip-standin';
export const COLORS = 5;
export const LEVELS = 7; // price levels 0..6
export const MOVES_PER_MATCH = 60;
const START_CASH = 20;

/** Options 0..10: 0 = pass, 1..5 = buy colour c-1, 6..10 = sell colour c-6. */
export const OPTIONS = 1 + 2 * COLORS;

const cost = (G, color) => G.prices[color] + 1;

/** The options open to `playerID` in `G` (pass is always open). */
export function legalOptions(G, playerID) {
  const seat = Number(playerID);
  const open = [0];
  for (let color = 0; color < COLORS; color++) {
    if (G.cash[seat] >= cost(G, color)) open.push(1 + color);
  }
  for (let color = 0; color < COLORS; color++) {
    if (G.holdings[seat][color] > 0) open.push(1 + COLORS + color);
  }
  return open;
}

function act({ G, ctx, playerID }, option) {
  if (!Number.isInteger(option) || !legalOptions(G, playerID).includes(option)) {
    return INVALID_MOVE;
  }
  const seat = Number(playerID);
  if (option >= 1 && option <= COLORS) {
    const color = option - 1;
    G.cash[seat] -= cost(G, color);
    G.holdings[seat][color] += 1;
    G.prices[color] = Math.min(LEVELS - 1, G.prices[color] + 1);
  } else if (option > COLORS) {
    const color = option - 1 - COLORS;
    G.cash[seat] += cost(G, color);
    G.holdings[seat][color] -= 1;
    G.prices[color] = Math.max(0, G.prices[color] - 1);
  }
  G.moves += 1;
  if (ctx.playOrderPos === ctx.numPlayers - 1) G.round += 1;
}

export const TulipStandIn = {
  name: GAME_NAME,
  minPlayers: 4,
  maxPlayers: 4,

  setup: ({ ctx }) => ({
    prices: Array(COLORS).fill(3),
    cash: Array(ctx.numPlayers).fill(START_CASH),
    holdings: Array.from({ length: ctx.numPlayers }, () => Array(COLORS).fill(0)),
    round: 0,
    moves: 0,
  }),

  moves: {
    // `client: false`: the server alone applies the move (no optimistic client-side
    // update), so a client sees its move only once the server has committed it, as with
    // Beurs, where POST .../actions answers after the commit.
    act: { move: act, client: false },
  },

  // One move per turn, then the standard round-robin turn order passes the turn.
  turn: { minMoves: 1, maxMoves: 1 },

  endIf: ({ G }) => {
    if (G.moves < MOVES_PER_MATCH) return undefined;
    const worth = G.cash.map(
      (cash, seat) => cash + G.holdings[seat].reduce((sum, n, color) => sum + n * cost(G, color), 0),
    );
    return { winner: String(worth.indexOf(Math.max(...worth))) };
  },

  // The legal moves, boardgame.io's way (its bots call this); the bench uses it too.
  ai: {
    enumerate: (G, ctx, playerID) =>
      legalOptions(G, playerID).map((option) => ({ move: 'act', args: [option] })),
  },
};
