//! A greedy player for measurements and tests (decision 11 of docs/rules/tulip-traders.md). It uses
//! only the public game API (`legal_actions`, `view`; the caller applies its choice) and
//! pursues a complete portfolio:
//!
//! - it keeps the cards that serve its best pattern attribute (the colour, type or
//!   "bicolor" held by most cards of the pool it chooses from; BOUQUET serves every one) and
//!   sells, discards or returns the others;
//! - it takes the cheapest investment option whose limit holds its hand (fp: its hand plus
//!   the final lot), keeping a reserve of 15ƒ, and places the earmark on a held tulip's cell;
//! - it offers at the minimum to the lowest allowed buyer, buys when it can, but accuses with
//!   probability 1/5 (and whenever it must), so lies still surface and crises still happen;
//! - it never moves a crisis, and it reveals whenever it may.

use crate::action::Action;
use crate::cards::Card;
use crate::state::{Phase, TulipTraders};
use game_core::{Game, GameRng, LegalAction, Seat, Viewer};

/// Pattern attributes of a card: colour bits 0..5, type bits 5..9 (Kaufmanniana has none:
/// it can never make a type pattern), bit 9 bicolor. BOUQUET has them all.
fn attributes(card: Card) -> u16 {
    if card == Card::Bouquet {
        return 0x3FF;
    }
    match card.cell() {
        Some(cell) if card.is_catalogue() => {
            let mut bits = u16::from(cell.colours());
            if cell.tulip_type() < 4 {
                bits |= 1 << (5 + cell.tulip_type());
            }
            if cell.is_bicolor() {
                bits |= 1 << 9;
            }
            bits
        }
        _ => 0,
    }
}

/// The `keep` cards of `pool` most useful for one pattern, in pool order otherwise.
pub fn keep(pool: &[Card], keep: usize) -> Vec<Card> {
    let count = |bit: u16| pool.iter().filter(|&&c| attributes(c) & bit != 0).count();
    let target = (0..10)
        .map(|b| 1u16 << b)
        .max_by_key(|&bit| (count(bit), std::cmp::Reverse(bit)))
        .unwrap_or(1);
    let score = |card: Card| -> i64 {
        let attrs = attributes(card);
        let on_target = if attrs & target != 0 { 100 } else { 0 };
        let second = (0..10)
            .map(|b| 1u16 << b)
            .filter(|&bit| attrs & bit != 0)
            .map(|bit| count(bit) as i64)
            .max()
            .unwrap_or(0);
        let junk = if card.is_weed() {
            -50
        } else if card.is_sack() {
            -40
        } else if card.is_tulip() && attrs == 0 {
            5 // SEMPER, QUEEN: worth money, not patterns
        } else {
            0
        };
        on_target + 10 * second + junk
    };
    let mut ranked: Vec<Card> = pool.to_vec();
    ranked.sort_by_key(|&c| (std::cmp::Reverse(score(c)), c.index()));
    ranked.truncate(keep);
    ranked
}

/// The cards of `hand` not in `kept`.
fn rest(hand: &[Card], kept: &[Card]) -> Vec<Card> {
    hand.iter().copied().filter(|c| !kept.contains(c)).collect()
}

/// The greedy player's action for `seat` (which must be the actor). `rng` only drives the
/// occasional accusation.
pub fn choose(game: &TulipTraders, seat: Seat, rng: &mut GameRng) -> Action {
    let legal: Vec<Action> = game
        .legal_actions(seat)
        .into_iter()
        .filter_map(|entry| match entry {
            LegalAction::Action { action } => Some(action),
            LegalAction::Schema { .. } => None,
        })
        .collect();
    let view = game.view(Viewer::Seat(seat));
    let me = &view.players[seat.index()];
    let hand = me.hand.clone().unwrap_or_default();
    let first = legal[0].clone();
    match view.phase {
        Phase::Declare => {
            let row = view.options.round_table[usize::from(view.round.clamp(1, 5)) - 1];
            let need = hand.len() + if view.fp == seat { 3 } else { 0 };
            let mut options: Vec<_> = view
                .options
                .investment_options
                .iter()
                .filter(|o| o.cost_rv == 0 || me.purse >= o.cost_rv * row.rv + 15)
                .collect();
            options.sort_by_key(|o| (o.cost_rv, o.limit_bonus));
            let pick = options
                .iter()
                .find(|o| (row.limit + o.limit_bonus) as usize >= need)
                .or(options.last())
                .map(|o| o.name.clone());
            match pick {
                Some(option) => Action::DeclareInvestment { option },
                None => first,
            }
        }
        Phase::Discard | Phase::Return => {
            let cards = rest(&hand, &keep(&hand, me.limit as usize));
            if view.phase == Phase::Discard {
                Action::Discard { cards }
            } else {
                Action::ReturnExcess { cards }
            }
        }
        Phase::Place => {
            let held: Vec<_> = keep(&hand, hand.len())
                .into_iter()
                .filter_map(|c| c.cell())
                .collect();
            legal
                .iter()
                .find(|a| match a {
                    Action::PlaceInvestment { alloc } => {
                        alloc.keys().next().is_some_and(|cell| held.contains(cell))
                    }
                    _ => false,
                })
                .cloned()
                .unwrap_or(first)
        }
        Phase::Offer { .. } => {
            let sell = rest(&hand, &keep(&hand, hand.len().saturating_sub(3)));
            match first {
                Action::OfferLot {
                    buyer, declared, ..
                } if sell.len() == 3 => Action::OfferLot {
                    cards: sell,
                    buyer,
                    declared,
                },
                other => other,
            }
        }
        Phase::Respond => {
            let buy = legal
                .iter()
                .find(|a| matches!(a, Action::Buy { .. }))
                .cloned();
            match buy {
                Some(buy) if rng.below(5) != 0 => buy,
                _ => Action::Accuse {},
            }
        }
        Phase::Reveal => legal
            .iter()
            .find(|a| matches!(a, Action::RevealPortfolio {}))
            .cloned()
            .unwrap_or(Action::DeclineReveal {}),
        Phase::Manipulate => Action::PassManipulation {},
        Phase::AddLine | Phase::Liquidate { .. } | Phase::GameOver => first,
    }
}
