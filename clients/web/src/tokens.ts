/**
 * The games this browser is in, with their tokens: kept in localStorage only (never in a URL,
 * which servers and proxies log). One entry per game: its ruleset, the admin token if this
 * browser created it, and the seat it holds.
 */

const KEY = "beurs.games";

export interface KnownGame {
  ruleset: string;
  admin?: string;
  seat?: number;
  token?: string;
  name?: string;
  created: string;
}

type Known = Record<string, KnownGame>;

function isKnownGame(value: unknown): value is KnownGame {
  return typeof value === "object" && value !== null && "ruleset" in value && typeof value.ruleset === "string";
}

export function knownGames(): Known {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? "{}");
    const known: Known = {};
    if (typeof parsed === "object" && parsed !== null) {
      for (const [id, game] of Object.entries(parsed)) {
        if (isKnownGame(game)) known[id] = game;
      }
    }
    return known;
  } catch {
    return {};
  }
}

export function knownGame(id: string): KnownGame | undefined {
  return knownGames()[id];
}

export function remember(id: string, update: Partial<KnownGame> & { ruleset: string }): void {
  const known = knownGames();
  known[id] = { created: new Date().toISOString(), ...known[id], ...update };
  localStorage.setItem(KEY, JSON.stringify(known));
}
