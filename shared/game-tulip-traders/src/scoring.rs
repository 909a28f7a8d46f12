//! Complete portfolios (§6.2), scores (§6.3) and the ranking (§6.4).

use crate::cards::{Card, ALL_CELLS};
use crate::event::Event;
use crate::options::{BonusTable, Options};
use crate::state::{EndReason, GameResult, Phase, TulipTraders};
use game_core::{Logged, Outcome, Seat};

/// A card's pattern attributes: colour bits 0..5, type bits 5..10. `None` for BOUQUET (wild).
fn attributes(card: Card) -> Option<u16> {
    let cell = ALL_CELLS[card.index()];
    Some(u16::from(cell.colours()) | (1 << (5 + cell.tulip_type())))
}

/// The best bonus of one pattern using exactly the cards `cards` (4..=6 of them, each a
/// catalogue tulip or BOUQUET), or 0.
fn pattern_value(cards: &[Card], table: &BonusTable, distinct_pairs: bool) -> u32 {
    let k = cards.len();
    let attrs: Vec<Option<u16>> = cards
        .iter()
        .map(|&c| {
            if c == Card::Bouquet {
                None
            } else {
                attributes(c)
            }
        })
        .collect();
    let mut best = 0;
    // Colour ×k and type ×k: one attribute common to every non-wild card.
    let common = attrs.iter().flatten().fold(0x3FF_u16, |acc, &a| acc & a);
    if (4..=6).contains(&k) {
        if common & 0x1F != 0 {
            best = best.max(table.colour[k - 4]);
        }
        if common & 0x3E0 != 0 {
            best = best.max(table.tulip_type[k - 4]);
        }
    }
    // Bicolor ×k.
    if (4..=5).contains(&k)
        && attrs
            .iter()
            .flatten()
            .all(|&a| (a & 0x1F).count_ones() == 2)
    {
        best = best.max(table.bicolor[k - 4]);
    }
    if k == 6 && three_pairs(&attrs, distinct_pairs) {
        best = best.max(table.three_pairs);
    }
    best
}

/// Whether six cards split into three pairs sharing (pairwise distinct) attributes.
fn three_pairs(attrs: &[Option<u16>], distinct: bool) -> bool {
    fn shared(a: Option<u16>, b: Option<u16>) -> u16 {
        match (a, b) {
            (Some(a), Some(b)) => a & b,
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => 0x3FF,
        }
    }
    fn search(rest: &[usize], attrs: &[Option<u16>], sets: &mut Vec<u16>, distinct: bool) -> bool {
        let Some((&first, others)) = rest.split_first() else {
            if !distinct {
                return true;
            }
            let (a, b, c) = (sets[0], sets[1], sets[2]);
            return (0..10).any(|x| {
                a & (1 << x) != 0
                    && (0..10).any(|y| {
                        y != x
                            && b & (1 << y) != 0
                            && (0..10).any(|z| z != x && z != y && c & (1 << z) != 0)
                    })
            });
        };
        for (i, &partner) in others.iter().enumerate() {
            let s = shared(attrs[first], attrs[partner]);
            if s == 0 {
                continue;
            }
            let remaining: Vec<usize> = others
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, &x)| x)
                .collect();
            sets.push(s);
            let found = search(&remaining, attrs, sets, distinct);
            sets.pop();
            if found {
                return true;
            }
        }
        false
    }
    let all: Vec<usize> = (0..attrs.len()).collect();
    search(&all, attrs, &mut Vec::new(), distinct)
}

/// `bonus(hand)` (§6.2): the best pattern, or with `max_bonuses_per_player > 1` the best
/// combination of patterns on disjoint cards.
pub fn bonus(hand: &[Card], options: &Options) -> u32 {
    let usable: Vec<Card> = hand
        .iter()
        .copied()
        .filter(|&c| c.is_catalogue() || c == Card::Bouquet)
        .collect();
    if usable.len() < 4 || usable.len() > 16 {
        return 0;
    }
    let mut patterns: Vec<(u32, u32)> = Vec::new();
    for mask in 0u32..(1 << usable.len()) {
        let size = mask.count_ones() as usize;
        if !(4..=6).contains(&size) {
            continue;
        }
        let cards: Vec<Card> = (0..usable.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| usable[i])
            .collect();
        let value = pattern_value(&cards, &options.bonus_table, options.three_pairs_distinct);
        if value > 0 {
            patterns.push((mask, value));
        }
    }
    fn best(patterns: &[(u32, u32)], used: u32, left: u8) -> u32 {
        if left == 0 {
            return 0;
        }
        let mut top = 0;
        for (i, &(mask, value)) in patterns.iter().enumerate() {
            if mask & used == 0 {
                top = top.max(value + best(&patterns[i + 1..], used | mask, left - 1));
            }
        }
        top
    }
    if options.max_bonuses_per_player <= 1 {
        patterns.iter().map(|p| p.1).max().unwrap_or(0)
    } else {
        best(&patterns, 0, options.max_bonuses_per_player)
    }
}

impl TulipTraders {
    /// §6.3 score of a surviving seat at a non-collapse end.
    pub fn score(&self, seat: Seat) -> i64 {
        let player = self.player(seat);
        let tulips: i64 = player
            .hand
            .iter()
            .filter(|c| c.is_tulip())
            .map(|&c| i64::from(self.mv(c)))
            .sum();
        let cash = if self.options.score_includes_cash {
            i64::from(player.purse)
        } else {
            0
        };
        let weeds = player.hand.iter().filter(|c| c.is_weed()).count() as i64;
        let sacks = player.hand.iter().filter(|c| c.is_sack()).count() as i64;
        tulips
            + cash
            + i64::from(bonus(&player.hand, &self.options))
            + weeds * self.options.weed_penalty
            + sacks * self.options.sack_penalty
    }

    /// Tie-break key 2 (§6.4): the highest mv among the seat's tulips (0 if none).
    pub fn best_tulip(&self, seat: Seat) -> u32 {
        self.player(seat)
            .hand
            .iter()
            .filter(|c| c.is_tulip())
            .map(|&c| self.mv(c))
            .max()
            .unwrap_or(0)
    }

    /// Ends the game (§6): scores, ranking, every hand public.
    pub(crate) fn finish(&mut self, reason: EndReason, events: &mut Vec<Logged<Event>>) {
        let ord = self.ord();
        let scores: Option<Vec<Option<i64>>> = match reason {
            EndReason::SoleSurvivor => None,
            EndReason::Collapse => Some(
                (0..self.n_seats)
                    .map(|s| {
                        (!self.players[usize::from(s)].bankrupt)
                            .then(|| i64::from(self.players[usize::from(s)].purse))
                    })
                    .collect(),
            ),
            EndReason::Reveal | EndReason::RoundLimit => Some(
                (0..self.n_seats)
                    .map(|s| (!self.players[usize::from(s)].bankrupt).then(|| self.score(Seat(s))))
                    .collect(),
            ),
        };
        let mut survivors = ord.clone();
        let key = |seat: Seat| -> (i64, u32) {
            let score = scores.as_ref().and_then(|s| s[seat.index()]).unwrap_or(0);
            let best = match reason {
                EndReason::Collapse if !self.options.collapse_tiebreak_precollapse_values => 0,
                _ => self.best_tulip(seat),
            };
            (score, best)
        };
        // A stable sort keeps ord order (key 3) among equal (score, best tulip) keys.
        survivors.sort_by_key(|&seat| std::cmp::Reverse(key(seat)));
        let mut ranking = survivors;
        ranking.extend(self.elimination_order.iter().rev().copied());
        self.result = Some(GameResult {
            reason,
            ranking: ranking.clone(),
            scores: scores.clone(),
        });
        self.phase = Phase::GameOver;
        let hands = self.players.iter().map(|p| p.hand.clone()).collect();
        events.push(Logged::public(Event::GameOver {
            reason,
            ranking,
            scores,
            hands,
        }));
    }
}

/// The game_core outcome: ranks follow the full ranking (no shared ranks, §6.4).
pub fn outcome(game: &TulipTraders) -> Option<Outcome> {
    let result = game.result.as_ref()?;
    let n = usize::from(game.n_seats);
    let mut ranks = vec![0u8; n];
    for (i, seat) in result.ranking.iter().enumerate() {
        ranks[seat.index()] = i as u8 + 1;
    }
    let scores = (0..n)
        .map(|s| result.scores.as_ref().and_then(|sc| sc[s]).unwrap_or(0))
        .collect();
    Some(Outcome {
        scores,
        ranks,
        winners: game_core::SeatSet::only(result.ranking[0]),
        reason: result.reason.name().to_string(),
    })
}
