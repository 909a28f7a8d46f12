//! The log in words: every action and event as a sentence a player understands.
//!
//! Each `match` lists every variant without a wildcard, so a new action or event cannot
//! compile without its sentence. A private event and its redacted twin share a variant (the
//! twin has `cards: None`): the sentence names cards only when the event carries them, so the
//! twin's sentence gives the count alone.

use crate::action::Action;
use crate::cards::{colour, Card, Cell};
use crate::event::{Event, PaymentKind};
use crate::market::Side;
use crate::state::EndReason;
use game_core::pick::Pick;
use game_core::words::{guilders, join_words, ordinal, plural, Names};
use game_core::Seat;

/// What the game is about, for players choosing one.
pub const SUMMARY: &str = "Trade tulips in a market that booms and crashes: each round the \
market grows by a line of cards, you choose how much to invest, and you spread your tokens \
over the market's tulips. Then you sell lots of three cards from your hand to each other, \
declaring their value; the buyer pays or accuses, and a lie or an honest accusation costs \
dearly. Crises wipe out investments and can collapse the market; the richest portfolio wins \
when the rounds run out, the market collapses or only one trader is left.";

/// A Portfolio card as players name it: "the red Lily", "the orange-and-yellow
/// Kaufmanniana", "the Semper Augustus", "a weed". Never the catalogue code ("K-OY").
pub(crate) fn card(card: Card) -> String {
    match (card.id(), card.cell()) {
        ("SEMPER", _) => "the Semper Augustus".to_string(),
        ("QUEEN", _) => "the Queen of the Night".to_string(),
        ("BOUQUET", _) => "the bouquet".to_string(),
        _ if card.is_weed() => "a weed".to_string(),
        _ if card.is_sack() => "an empty sack".to_string(),
        (_, Some(at)) => format!("the {}", tulip(at)),
        (id, None) => format!("the {id} card"),
    }
}

/// A catalogue tulip's colours and type: "red Lily", "purple-and-red Double".
fn tulip(cell: Cell) -> String {
    const TYPES: [&str; 5] = ["Lily", "Single", "Parrot", "Double", "Kaufmanniana"];
    const COLOURS: [(u8, &str); 5] = [
        (colour::RED, "red"),
        (colour::PINK, "pink"),
        (colour::ORANGE, "orange"),
        (colour::PURPLE, "purple"),
        (colour::YELLOW, "yellow"),
    ];
    let mask = cell.colours();
    let colours: Vec<&str> = COLOURS
        .iter()
        .filter(|(bit, _)| mask & bit != 0)
        .map(|(_, name)| *name)
        .collect();
    let kind = TYPES
        .get(usize::from(cell.tulip_type()))
        .copied()
        .unwrap_or("tulip");
    format!("{} {kind}", colours.join("-and-"))
}

fn cards(list: &[Card]) -> String {
    let names: Vec<String> = list.iter().map(|&one| card(one)).collect();
    join_words(&names)
}

/// A market cell as players name it: "the red Lily market".
pub(crate) fn cell(cell: Cell) -> String {
    format!("the {} market", tulip(cell))
}

fn side(side: Side) -> &'static str {
    match side {
        Side::Top => "top",
        Side::Bottom => "bottom",
        Side::Left => "left",
        Side::Right => "right",
    }
}

fn reason(reason: EndReason) -> &'static str {
    match reason {
        EndReason::SoleSurvivor => "only one trader is left",
        EndReason::Collapse => "the market collapsed",
        EndReason::Reveal => "a complete portfolio was revealed",
        EndReason::RoundLimit => "the last round is over",
    }
}

/// What choosing an investment option does, as a verb phrase: "abstain from investing",
/// "invest as a broker". Options are named by the game's options (`abstain`, `broker` and
/// `patron` by default); any other name reads as a role.
fn investing(option: &str) -> String {
    let name = option.replace('_', " ");
    match name.as_str() {
        "abstain" => "abstain from investing".to_string(),
        _ if name.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("invest as an {name}"),
        _ => format!("invest as a {name}"),
    }
}

/// `phrase` with its first letter capitalised.
fn capitalised(phrase: &str) -> String {
    let mut chars = phrase.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn allocation(alloc: &std::collections::BTreeMap<Cell, u32>) -> String {
    let parts: Vec<String> = alloc
        .iter()
        .map(|(&at, &tokens)| {
            format!(
                "{} on {}",
                plural(tokens as u64, "token", "tokens"),
                cell(at)
            )
        })
        .collect();
    join_words(&parts)
}

/// `action` by `seat` in words.
pub fn describe_action(action: &Action, seat: Seat, names: &Names) -> String {
    let who = names.seat(seat);
    match action {
        Action::DeclareInvestment { option } => {
            format!("{who} chose to {}.", investing(option))
        }
        Action::Discard { cards: thrown } => format!("{who} discarded {}.", cards(thrown)),
        Action::AddMarketLine { side: at } => {
            format!("{who} added a market line on the {} side.", side(*at))
        }
        Action::MoveCrisis { from, to } => {
            format!(
                "{who} moved the crisis from {} to {}.",
                cell(*from),
                cell(*to)
            )
        }
        Action::PassManipulation {} => format!("{who} left the crises where they were."),
        Action::PlaceInvestment { alloc } => {
            format!("{who} invested {}.", allocation(alloc))
        }
        Action::OfferLot {
            cards: lot,
            buyer,
            declared,
        } => format!(
            "{who} offered {} to {}, declared worth {}.",
            cards(lot),
            names.seat(*buyer),
            guilders(declared)
        ),
        Action::Buy { liquidate } => {
            if liquidate.is_empty() {
                format!("{who} bought the lot.")
            } else {
                format!("{who} bought the lot, selling {} to pay.", cards(liquidate))
            }
        }
        Action::Accuse {} => format!("{who} accused the seller of lying."),
        Action::Liquidate { cards: sold } => format!("{who} sold {} to pay.", cards(sold)),
        Action::ReturnExcess { cards: returned } => {
            format!("{who} returned {}.", cards(returned))
        }
        Action::RevealPortfolio {} => format!("{who} revealed a complete portfolio."),
        Action::DeclineReveal {} => format!("{who} chose not to reveal."),
    }
}

/// `action` as a button's label: what the player does, in the imperative, naming the cards,
/// the markets and the buyer.
pub fn label_action(action: &Action, names: &Names) -> String {
    match action {
        Action::DeclareInvestment { option } => capitalised(&investing(option)),
        Action::Discard { cards: thrown } => format!("Discard {}", cards(thrown)),
        Action::AddMarketLine { side: at } => {
            format!("Add a market line on the {} side", side(*at))
        }
        Action::MoveCrisis { from, to } => {
            format!("Move the crisis from {} to {}", cell(*from), cell(*to))
        }
        Action::PassManipulation {} => "Leave the crises where they are".to_string(),
        Action::PlaceInvestment { alloc } if alloc.is_empty() => "Invest nothing".to_string(),
        Action::PlaceInvestment { alloc } => format!("Invest {}", allocation(alloc)),
        Action::OfferLot {
            cards: lot,
            buyer,
            declared,
        } => format!(
            "Offer {} to {}, declared worth {}",
            cards(lot),
            names.seat(*buyer),
            guilders(declared)
        ),
        Action::Buy { liquidate } if liquidate.is_empty() => "Buy the lot".to_string(),
        Action::Buy { liquidate } => format!("Buy the lot, selling {} to pay", cards(liquidate)),
        Action::Accuse {} => "Accuse the seller of lying".to_string(),
        Action::Liquidate { cards: sold } => format!("Sell {} to pay", cards(sold)),
        Action::ReturnExcess { cards: returned } => format!("Return {}", cards(returned)),
        Action::RevealPortfolio {} => "Reveal your complete portfolio".to_string(),
        Action::DeclineReveal {} => "Do not reveal".to_string(),
    }
}

/// The cards to discard, return or sell as a pick of cards ([`game_core::pick`]), each card
/// as the labels name it.
pub fn pick_of(action: &Action) -> Option<Pick> {
    let (field, label, chosen) = match action {
        Action::Discard { cards } => ("cards", "Choose the cards to discard", cards),
        Action::ReturnExcess { cards } => ("cards", "Choose the cards to return", cards),
        Action::Liquidate { cards } => ("cards", "Choose the cards to sell", cards),
        _ => return None,
    };
    Some(Pick {
        field,
        label: label.to_string(),
        items: chosen.iter().map(|&one| card(one)).collect(),
    })
}

/// Whether `event` tells the move `action` itself, with what the action could not say (the
/// fee a crisis move cost, the price a lot fetched): the log's headline for the move.
pub fn restates(action: &Action, event: &Event) -> bool {
    matches!(
        (action, event),
        (
            Action::DeclareInvestment { .. },
            Event::InvestmentDeclared { .. }
        ) | (Action::Discard { .. }, Event::CardsPutAway { .. })
            | (Action::MoveCrisis { .. }, Event::CrisisMoved { .. })
            | (
                Action::PassManipulation {},
                Event::ManipulationPassed { .. }
            )
            | (
                Action::PlaceInvestment { .. },
                Event::InvestmentPlaced { .. }
            )
            | (Action::OfferLot { .. }, Event::LotOffered { .. })
            | (Action::Buy { .. }, Event::LotBought { .. })
            | (Action::Accuse {}, Event::Accused { .. })
            | (Action::DeclineReveal {}, Event::RevealDeclined { .. })
            | (Action::RevealPortfolio {}, Event::PortfolioRevealed { .. })
    )
}

/// `event` in words.
pub fn describe_event(event: &Event, names: &Names) -> String {
    match event {
        Event::RoundStarted { round, fp } => {
            format!("Round {round} began; {} plays first.", names.seat(*fp))
        }
        Event::MarketCardPlaced { cell: at, row, col } => format!(
            "The {} joined the market at row {}, column {}.",
            tulip(*at),
            row + 1,
            col + 1
        ),
        Event::Boom {
            placed,
            neighbour,
            placed_gain,
            neighbour_gain,
        } => format!(
            "Boom: {} gained {} and {} gained {}.",
            cell(*placed),
            plural(*placed_gain as u64, "token", "tokens"),
            cell(*neighbour),
            plural(*neighbour_gain as u64, "token", "tokens")
        ),
        Event::InvestmentDeclared {
            seat,
            option,
            earmark,
            limit,
        } => format!(
            "{} chose to {}: {} to place, a hand of at most {limit} cards.",
            names.seat(*seat),
            investing(option),
            plural(*earmark as u64, "token", "tokens")
        ),
        Event::CardsPutAway {
            seat,
            count: n,
            cards: put,
        } => match put {
            Some(put) => format!("{} put away {}.", names.seat(*seat), cards(put)),
            None => format!(
                "{} put away {}.",
                names.seat(*seat),
                plural(*n as u64, "card", "cards")
            ),
        },
        Event::CrisisMoved {
            seat,
            from,
            to,
            fee,
            tokens_removed,
        } => format!(
            "{} paid {} to move the crisis from {} to {}, which lost {}.",
            names.seat(*seat),
            guilders(fee),
            cell(*from),
            cell(*to),
            plural(*tokens_removed as u64, "token", "tokens")
        ),
        Event::ManipulationPassed { seat } => {
            format!("{} left the crises alone.", names.seat(*seat))
        }
        Event::InvestmentPlaced { seat, alloc } => {
            format!("{} placed {}.", names.seat(*seat), allocation(alloc))
        }
        Event::CardsDrawn {
            seat,
            count: n,
            cards: drawn,
            sacks,
        } => {
            let what = match drawn {
                Some(drawn) => cards(drawn),
                None => plural(*n as u64, "card", "cards"),
            };
            let sacks = if sacks.is_empty() {
                String::new()
            } else {
                format!(
                    " and {}",
                    plural(sacks.len() as u64, "empty sack", "empty sacks")
                )
            };
            format!("{} drew {what}{sacks}.", names.seat(*seat))
        }
        Event::SellerPending {
            seller,
            min,
            final_offer,
        } => format!(
            "{} must offer a lot declared at {} or more{}.",
            names.seat(*seller),
            guilders(min),
            if *final_offer { ", a final offer" } else { "" }
        ),
        Event::LotOffered {
            seller,
            buyer,
            declared,
            final_offer,
            cards: lot,
        } => {
            let what = match lot {
                Some(lot) => cards(lot),
                None => "a lot of three cards".to_string(),
            };
            format!(
                "{} offered {what} to {}, declared worth {}{}.",
                names.seat(*seller),
                names.seat(*buyer),
                guilders(declared),
                if *final_offer {
                    " as a final offer"
                } else {
                    ""
                }
            )
        }
        Event::LotBought {
            seller,
            buyer,
            price,
            cards: lot,
        } => {
            let what = match lot {
                Some(lot) => cards(lot),
                None => "the lot".to_string(),
            };
            format!(
                "{} bought {what} from {} for {}.",
                names.seat(*buyer),
                names.seat(*seller),
                guilders(price)
            )
        }
        Event::Accused {
            seller,
            buyer,
            lot,
            declared,
            actual,
            honest,
        } => format!(
            "{} accused {}: the lot of {} was declared at {} and is worth {}, so the seller {}.",
            names.seat(*buyer),
            names.seat(*seller),
            cards(lot),
            guilders(declared),
            guilders(actual),
            if *honest { "was honest" } else { "lied" }
        ),
        Event::LiquidationRequired {
            debtor,
            creditor,
            amount,
        } => format!(
            "{} owes {} {} and must sell cards to pay.",
            names.seat(*debtor),
            names.seat(*creditor),
            guilders(amount)
        ),
        Event::CardLiquidated {
            seat,
            card: sold,
            value,
            sack,
        } => format!(
            "{} sold {} for {}{}.",
            names.seat(*seat),
            card(*sold),
            guilders(value),
            if sack.is_some() {
                " and took an empty sack in its place"
            } else {
                ""
            }
        ),
        Event::Payment {
            from,
            to,
            amount,
            kind,
        } => {
            let why = match kind {
                PaymentKind::Price => "for the lot",
                PaymentKind::HonestAccusation => "for a false accusation",
                PaymentKind::LieFine => "as a fine for lying",
                PaymentKind::BankruptCash => "in cash, going bankrupt",
            };
            format!(
                "{} paid {} {} {why}.",
                names.seat(*from),
                names.seat(*to),
                guilders(amount)
            )
        }
        Event::CrisisPlaced {
            cell: at,
            tokens_removed,
        } => format!(
            "A crisis struck {}, which lost {}.",
            cell(*at),
            plural(*tokens_removed as u64, "token", "tokens")
        ),
        Event::Ripple {
            cell: at,
            tokens_removed,
        } => format!(
            "The crisis rippled to {}, which lost {}.",
            cell(*at),
            plural(*tokens_removed as u64, "token", "tokens")
        ),
        Event::CollapseTriggered => "The market collapsed.".to_string(),
        Event::LotDisposed { cards: lot } => format!("{} left the game.", cards(lot)),
        Event::Bankrupt {
            seat,
            creditor,
            discarded,
        } => format!(
            "{} went bankrupt to {} and discarded {}.",
            names.seat(*seat),
            names.seat(*creditor),
            if discarded.is_empty() {
                "nothing".to_string()
            } else {
                cards(discarded)
            }
        ),
        Event::ChainEnded => "The chain of payments is settled.".to_string(),
        Event::RevealDeclined { seat } => {
            format!("{} did not reveal a portfolio.", names.seat(*seat))
        }
        Event::PortfolioRevealed { seat } => {
            format!("{} revealed a complete portfolio.", names.seat(*seat))
        }
        Event::GameOver {
            reason: why,
            ranking,
            scores,
            ..
        } => {
            let places: Vec<String> = ranking
                .iter()
                .enumerate()
                .map(|(place, &seat)| {
                    let score = scores
                        .as_ref()
                        .and_then(|scores| scores.get(seat.index()).copied().flatten())
                        .map(|score| format!(" with {}", guilders(score)))
                        .unwrap_or_default();
                    format!("{} {}{score}", ordinal(place as u64 + 1), names.seat(seat))
                })
                .collect();
            format!(
                "The game is over because {}: {}.",
                reason(*why),
                places.join(", ")
            )
        }
    }
}
