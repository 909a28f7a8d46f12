//! The log in words: every action and event as a sentence a player understands.
//!
//! Each `match` lists every variant without a wildcard, so a new action, event or card
//! cannot compile without its sentence. A sentence is built only from the fields of the
//! event it describes: the redacted twin of a private draw (colour `null`) never names the
//! colour, so the twin's sentence says no more than the twin.
//!
//! The price moves are told as a direction ("the purple price rose"), not as an amount: the
//! events carry the board's space ids, not their values, and the board is an option.

use crate::action::Action;
use crate::event::{Event, Payer, Pile, RevealedCard};
use crate::pieces::{Card, Colour, DiscardReason};
use crate::state::{EndReason, Tulipmania};
use game_core::words::{guilders, join_words, Names};
use game_core::Seat;
use std::collections::BTreeMap;

/// What the game is about, for players choosing one.
pub const SUMMARY: &str = "Trade tulips during the Dutch flower craze of 1637 and finish with \
the most money. On your turn you put one tulip up for sale while the others answer in secret \
with action cards, from a plain purchase to a speculation that sends the price soaring; then \
you may draw a buyer card and buy a tulip from the stock. When a colour's price climbs too \
high it bursts and every tulip of that colour is sold off on the way down. The game ends when \
the last colour bursts or when a whole round passes without any trading, and the richest \
player wins.";

/// The colour as players say it: "purple".
fn colour(colour: Colour) -> &'static str {
    match colour {
        Colour::Purple => "purple",
        Colour::Yellow => "yellow",
        Colour::Orange => "orange",
        Colour::Blue => "blue",
        Colour::Red => "red",
    }
}

/// The colour with its article: "a purple", "an orange".
fn a_colour(c: Colour) -> String {
    match c {
        Colour::Orange => format!("an {}", colour(c)),
        Colour::Purple | Colour::Yellow | Colour::Blue | Colour::Red => {
            format!("a {}", colour(c))
        }
    }
}

/// The colour at the start of a sentence: "Purple".
fn colour_capitalised(c: Colour) -> String {
    capitalise(colour(c))
}

/// `text` with its first letter in upper case.
fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The action card's printed name: "Speculate by proxy".
fn card(card: Card) -> &'static str {
    match card {
        Card::Speculate => "Speculate",
        Card::SpeculateByProxy => "Speculate by proxy",
        Card::Purchase => "Purchase",
        Card::PurchaseByProxy => "Purchase by proxy",
        Card::Pass => "Pass",
    }
}

/// The pile a card came from: "the deck".
fn pile(pile: Pile) -> &'static str {
    match pile {
        Pile::Deck => "the deck",
        Pile::Reserve => "the reserve",
    }
}

/// "1 purple buyer card", "2 purple buyer cards".
fn buyer_cards(count: u32, c: Colour) -> String {
    if count == 1 {
        format!("1 {} buyer card", colour(c))
    } else {
        format!("{count} {} buyer cards", colour(c))
    }
}

/// A face-up slot as players count it (the JSON counts from 0).
fn slot(slot: u32) -> u32 {
    slot + 1
}

/// Why buyer cards of `c` left play, as the end of a sentence.
fn discard_reason(reason: DiscardReason, c: Colour) -> String {
    match reason {
        DiscardReason::Proxy => "to buy by proxy".to_string(),
        DiscardReason::BurstPenalty => format!("as the penalty for the {} burst", colour(c)),
        DiscardReason::BurstPair => format!("with {} tulip in the burst sell-off", a_colour(c)),
        DiscardReason::BurstCleanup => format!("because {} left the game", colour(c)),
        DiscardReason::BurstColourDraw => format!("because {} had already burst", colour(c)),
        DiscardReason::Exhaustion => "because the buyer deck ran out".to_string(),
    }
}

/// `action` by `seat` as a sentence.
pub fn describe_action(action: &Action, seat: Seat, names: &Names) -> String {
    let who = names.seat(seat);
    match action {
        Action::SellTulip { colour: c } => {
            format!("{who} offered {} tulip for sale.", a_colour(*c))
        }
        Action::SkipSale {} => format!("{who} kept their only tulip and sold nothing."),
        Action::CommitCard { card: chosen } => {
            format!("{who} secretly chose the {} card.", card(*chosen))
        }
        Action::PlaySellerCard { card: chosen } => match chosen {
            Card::Pass => format!("{who} passed on their own sale."),
            Card::Speculate | Card::SpeculateByProxy | Card::Purchase | Card::PurchaseByProxy => {
                format!("{who} played {} on their own sale.", card(*chosen))
            }
        },
        Action::DrawBuyer { face_up } => match face_up {
            None => format!("{who} drew a buyer card from the deck."),
            Some(index) => format!(
                "{who} took the face-up buyer card in slot {}.",
                slot(*index)
            ),
        },
        Action::BuyTulip { colour: c } => {
            format!("{who} bought {} tulip from the stockpile.", a_colour(*c))
        }
        Action::SkipPurchase {} => format!("{who} bought no tulip this turn."),
    }
}

/// `action` as a button's label in `state`, where it is legal: what the player does, with
/// the price that decides it.
pub fn label_action(state: &Tulipmania, action: &Action) -> String {
    let at_price = |c: Colour| match state.price(c) {
        Some(price) => format!(" at {}", guilders(price)),
        None => String::new(),
    };
    match action {
        Action::SellTulip { colour: c } => {
            format!("Offer {} tulip for sale{}", a_colour(*c), at_price(*c))
        }
        Action::SkipSale {} => "Keep your tulip and sell nothing".to_string(),
        Action::CommitCard { card: chosen } => format!("Choose {} (face down)", card(*chosen)),
        Action::PlaySellerCard { card: chosen } => match chosen {
            Card::Pass => "Pass on your own sale".to_string(),
            Card::Speculate | Card::SpeculateByProxy | Card::Purchase | Card::PurchaseByProxy => {
                format!("Play {} on your own sale", card(*chosen))
            }
        },
        Action::DrawBuyer { face_up } => match face_up {
            None => "Draw a buyer card from the deck".to_string(),
            Some(index) => match usize::try_from(*index)
                .ok()
                .and_then(|i| state.face_up.get(i))
            {
                Some(c) => format!("Take the face-up {} buyer card", colour(*c)),
                None => format!("Take the face-up buyer card in slot {}", slot(*index)),
            },
        },
        Action::BuyTulip { colour: c } => {
            format!(
                "Buy {} tulip from the stockpile{}",
                a_colour(*c),
                at_price(*c)
            )
        }
        Action::SkipPurchase {} => "Buy no tulip this turn".to_string(),
    }
}

/// Whether `event` tells the move `action` itself, with what the action could not say (who
/// won, the price paid, the card drawn): the log's headline for the move. For a sealed card
/// the API heads the author's entry with the action (which names the card) and everyone
/// else's with the event (which does not).
pub fn restates(action: &Action, event: &Event) -> bool {
    matches!(
        (action, event),
        (Action::SellTulip { .. }, Event::TulipOffered { .. })
            | (Action::SkipSale {}, Event::SaleSkipped { .. })
            | (Action::CommitCard { .. }, Event::CardCommitted { .. })
            | (
                Action::PlaySellerCard { .. },
                Event::SellerCardPlayed { .. }
            )
            | (Action::DrawBuyer { .. }, Event::BuyerDrawn { .. })
            | (Action::BuyTulip { .. }, Event::TulipBought { .. })
            | (Action::SkipPurchase {}, Event::PurchaseSkipped { .. })
    )
}

/// `event` as a sentence.
pub fn describe_event(event: &Event, names: &Names) -> String {
    match event {
        Event::GameDealt {
            first_player,
            face_up,
            deck,
            reserve,
        } => {
            let shown: Vec<String> = face_up.iter().map(|&c| colour(c).to_string()).collect();
            format!(
                "The cards were dealt and {} was chosen to go first. The face-up buyer cards \
                 were {}, with {deck} cards left in the deck and {reserve} in the reserve.",
                names.seat(*first_player),
                join_words(&shown)
            )
        }
        Event::BuyersDealt {
            seat,
            count,
            buyers,
        } => {
            let who = names.seat(*seat);
            let cards = if *count == 1 { "card" } else { "cards" };
            match buyers {
                Some(hand) => format!(
                    "{who} was dealt {count} buyer {cards}: {}.",
                    hand_words(hand)
                ),
                None => format!("{who} was dealt {count} buyer {cards} face down."),
            }
        }
        Event::TulipOffered { seller, colour: c } => format!(
            "{} put {} tulip up for sale.",
            names.seat(*seller),
            a_colour(*c)
        ),
        Event::SaleSkipped { seat } => {
            format!("{} did not sell a tulip this turn.", names.seat(*seat))
        }
        Event::CardCommitted { seat } => {
            format!("{} placed an action card face down.", names.seat(*seat))
        }
        Event::CardsRevealed { cards } => {
            let shown: Vec<String> = cards
                .iter()
                .map(|RevealedCard { seat, card: played }| {
                    format!("{} {}", names.seat(*seat), card(*played))
                })
                .collect();
            if shown.is_empty() {
                "No action cards were turned over.".to_string()
            } else {
                format!("The action cards were turned over: {}.", join_words(&shown))
            }
        }
        Event::IllegalCardReplaced { seat, card: played } => format!(
            "{} lacked the money or buyer cards for {}, so it counted as a Pass.",
            names.seat(*seat),
            card(*played)
        ),
        Event::SellerCardPlayed { seat, card: played } => {
            let who = names.seat(*seat);
            match played {
                Card::Pass => format!("Everyone else passed, and {who} passed as the seller too."),
                Card::Speculate
                | Card::SpeculateByProxy
                | Card::Purchase
                | Card::PurchaseByProxy => format!(
                    "Everyone else passed, so {who} played {} as the seller.",
                    card(*played)
                ),
            }
        }
        Event::SaleResolved {
            seller,
            colour: c,
            winner,
            card: played,
            price,
            paid_by,
            tulip_to,
            from,
            to,
        } => {
            let seller_name = names.seat(*seller);
            let opening = match winner {
                None => format!("Nobody took {seller_name}'s {} tulip", colour(*c)),
                Some(winner) if winner == seller => format!(
                    "{seller_name} won the sale of their own {} tulip with {}",
                    colour(*c),
                    card(*played)
                ),
                Some(winner) => format!(
                    "{} won {seller_name}'s {} tulip with {}",
                    names.seat(*winner),
                    colour(*c),
                    card(*played)
                ),
            };
            let payer = match paid_by {
                Payer::Winner => match winner {
                    Some(winner) => names.seat(*winner),
                    None => "the buyer".to_string(),
                },
                Payer::Bank => "the bank".to_string(),
            };
            let destination = match tulip_to {
                Some(taker) => names.seat(*taker),
                None => "the stockpile".to_string(),
            };
            let movement = if from == to {
                format!("the {} price stayed where it was", colour(*c))
            } else if winner.is_some() {
                format!("the {} price rose", colour(*c))
            } else {
                format!("the {} price fell", colour(*c))
            };
            format!(
                "{opening}: {payer} paid {seller_name} {}, the tulip went to {destination} \
                 and {movement}.",
                guilders(price)
            )
        }
        Event::BuyersDiscarded {
            seat,
            colour: c,
            count,
            reason,
        } => format!(
            "{} gave up {} {}.",
            names.seat(*seat),
            buyer_cards(u32::from(*count), *c),
            discard_reason(*reason, *c)
        ),
        Event::PriorityPassed { from, to } => format!(
            "The priority card passed from {} to {}.",
            names.seat(*from),
            names.seat(*to)
        ),
        Event::BurstStarted {
            colour: c,
            speculative,
            card_player,
            final_burst,
        } => {
            let name = colour_capitalised(*c);
            if *final_burst {
                format!("{name} was the last colour left, so it burst as well.")
            } else if *speculative {
                match card_player {
                    Some(player) => format!(
                        "{name} burst on {}'s speculation; everyone else holding {} buyer \
                         card had to give one up.",
                        names.seat(*player),
                        a_colour(*c)
                    ),
                    None => format!("{name} burst on a speculation."),
                }
            } else {
                format!("{name} burst after a purchase.")
            }
        }
        Event::TulipsSoldOff {
            colour: c,
            pairs,
            seats,
            price,
            from: _,
            to: _,
        } => {
            let what = if *pairs {
                format!("{} tulip together with a buyer card", a_colour(*c))
            } else {
                format!("{} tulip", a_colour(*c))
            };
            let each = if seats.len() > 1 { " each" } else { "" };
            format!(
                "{}{each} sold {what} to the bank for {}, and the {} price dropped a step.",
                names.list(seats.iter().copied()),
                guilders(price),
                colour(*c)
            )
        }
        Event::FaceUpDiscarded {
            slot: index,
            colour: c,
            reason,
        } => format!(
            "The face-up {} buyer card in slot {} was discarded {}.",
            colour(*c),
            slot(*index),
            discard_reason(*reason, *c)
        ),
        Event::FaceUpRefilled {
            slot: index,
            colour: c,
            from,
        } => format!(
            "Face-up slot {} was refilled with {} buyer card from {}.",
            slot(*index),
            a_colour(*c),
            pile(*from)
        ),
        Event::FaceUpSlotRemoved { slot: index } => format!(
            "Face-up slot {} could not be refilled and was taken away.",
            slot(*index)
        ),
        Event::ColourRemoved {
            colour: c,
            stock_removed,
        } => match stock_removed {
            0 => format!("{} left the game.", colour_capitalised(*c)),
            1 => format!(
                "{} left the game, along with the 1 {} tulip in the stockpile.",
                colour_capitalised(*c),
                colour(*c)
            ),
            many => format!(
                "{} left the game, along with the {many} {} tulips in the stockpile.",
                colour_capitalised(*c),
                colour(*c)
            ),
        },
        Event::BuyerDrawn {
            seat,
            face_up,
            colour: drawn,
        } => {
            let who = names.seat(*seat);
            match (face_up, drawn) {
                (None, Some(c)) => {
                    format!("{who} drew {} buyer card from the deck.", a_colour(*c))
                }
                (None, None) => format!("{who} drew a buyer card from the deck."),
                (Some(index), Some(c)) => format!(
                    "{who} took the face-up {} buyer card from slot {}.",
                    colour(*c),
                    slot(*index)
                ),
                (Some(index), None) => format!(
                    "{who} took the face-up buyer card from slot {}.",
                    slot(*index)
                ),
            }
        }
        Event::BurstColourDrawn { colour: c, from } => format!(
            "{} buyer card came off {}; {} had already burst, so it was shown and discarded.",
            capitalise(&a_colour(*c)),
            pile(*from),
            colour(*c)
        ),
        Event::ReplacementReceived {
            seat,
            received,
            colour: replacement,
        } => {
            let who = names.seat(*seat);
            match (received, replacement) {
                (true, Some(c)) => format!(
                    "{who} got {} buyer card from the reserve instead.",
                    a_colour(*c)
                ),
                (true, None) => format!("{who} got a buyer card from the reserve instead."),
                (false, Some(_) | None) => {
                    format!("The reserve was empty, so {who} got no buyer card.")
                }
            }
        }
        Event::DeckExhausted { discarded } => {
            if discarded.is_empty() {
                "The buyer deck ran out; no more buyer cards can be drawn.".to_string()
            } else {
                let shown: Vec<String> = discarded.iter().map(|&c| colour(c).to_string()).collect();
                format!(
                    "The buyer deck ran out, so the face-up {} buyer cards were discarded and \
                     no more can be drawn.",
                    join_words(&shown)
                )
            }
        }
        Event::TulipBought {
            seat,
            colour: c,
            price,
            from: _,
            to: _,
        } => format!(
            "{} bought {} tulip from the stockpile for {}, and the {} price rose.",
            names.seat(*seat),
            a_colour(*c),
            guilders(price),
            colour(*c)
        ),
        Event::PurchaseSkipped { seat } => {
            format!("{} bought no tulip this turn.", names.seat(*seat))
        }
        Event::TurnEnded {
            seat,
            idle,
            idle_turns,
            current_player,
            priority_holder,
            turn_number,
        } => {
            let who = names.seat(*seat);
            let ended = if *idle {
                let turns = if *idle_turns == 1 { "turn" } else { "turns" };
                format!(
                    "{who} ended the turn without trading ({idle_turns} quiet {turns} in a row)."
                )
            } else {
                format!("{who} ended the turn.")
            };
            format!(
                "{ended} Turn {turn_number} went to {}, and {} held the priority card.",
                names.seat(*current_player),
                names.seat(*priority_holder)
            )
        }
        Event::Liquidated { payouts } => {
            let paid: Vec<String> = payouts
                .iter()
                .enumerate()
                .filter(|(_, &amount)| amount != 0)
                .map(|(index, &amount)| {
                    format!("{} {}", names.seat(seat_at(index)), guilders(amount))
                })
                .collect();
            if paid.is_empty() {
                "The remaining tulips were to be sold at their current prices, but nobody held \
                 any."
                    .to_string()
            } else {
                format!(
                    "Every remaining tulip was sold to the bank at its current price: {}.",
                    join_words(&paid)
                )
            }
        }
        Event::GameEnded {
            reason,
            cash,
            ranks,
        } => {
            let why = match reason {
                EndReason::FinalBurst => "The game ended when the last colour burst.",
                EndReason::AllDecline => {
                    "The game ended after a full round in which nobody traded."
                }
                EndReason::TurnCap => "The game ended at the turn limit.",
            };
            format!("{why} {}", standings(cash, ranks, names))
        }
    }
}

/// A seat from its index in a by-seat list.
fn seat_at(index: usize) -> Seat {
    Seat(u8::try_from(index).unwrap_or(u8::MAX))
}

/// A dealt hand: "2 purple and 1 yellow"; "no cards" when empty.
fn hand_words(hand: &BTreeMap<Colour, u8>) -> String {
    let parts: Vec<String> = hand
        .iter()
        .filter(|(_, &count)| count > 0)
        .map(|(&c, &count)| format!("{count} {}", colour(c)))
        .collect();
    if parts.is_empty() {
        "no cards".to_string()
    } else {
        join_words(&parts)
    }
}

/// The final standings: "Anna won with ƒ5450, ahead of Cas with ƒ4575 and Ben with ƒ1275."
fn standings(cash: &[i64], ranks: &[u8], names: &Names) -> String {
    let mut order: Vec<usize> = (0..cash.len().min(ranks.len())).collect();
    order.sort_by_key(|&index| (ranks[index], index));
    let (winners, others): (Vec<usize>, Vec<usize>) =
        order.iter().partition(|&&index| ranks[index] == 1);
    let Some(&first) = winners.first() else {
        return "Nobody won.".to_string();
    };
    let winner_names = names.list(winners.iter().map(|&index| seat_at(index)));
    let lead = if winners.len() == 1 {
        format!("{winner_names} won with {}", guilders(cash[first]))
    } else {
        format!(
            "{winner_names} shared the win with {} each",
            guilders(cash[first])
        )
    };
    if others.is_empty() {
        format!("{lead}.")
    } else {
        let rest: Vec<String> = others
            .iter()
            .map(|&index| {
                format!(
                    "{} with {}",
                    names.seat(seat_at(index)),
                    guilders(cash[index])
                )
            })
            .collect();
        format!("{lead}, ahead of {}.", join_words(&rest))
    }
}
