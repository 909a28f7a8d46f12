//! The log in words: every action and event as a sentence a player understands.
//!
//! Each `match` lists every variant without a wildcard, so a new action, event, collector
//! or card cannot compile without its sentence. A sentence is built only from the fields of
//! the event it describes: the redacted twin of a sealed Black Tulip decision (`claim`
//! `null`) says that a decision was made, never which.

use crate::action::{Action, PaymentMethod};
use crate::cards::{CardId, Collector, Colour, EventCard, EventEffect, Kind, Tulip};
use crate::event::Event;
use crate::state::{EndReason, TulipBubble};
use crate::track::Track;
use game_core::pick::Pick;
use game_core::words::{guilders, join_words, ordinal, Names};
use game_core::{Seat, SeatSet};

/// What the game is about, for players choosing one.
pub const SUMMARY: &str = "Speculate on red, white and yellow tulips in Golden Age Holland: \
buy them at auction with cash or on credit, and sell them to the market or to collectors as \
prices rise and fall. Each round opens with market news that moves the prices, then players \
take turns selling, and finally mark the tulips they want with bid markers, bidding against \
anyone who marked the same one. A player with enough cash and no loans may buy the Black \
Tulip and win at once. If the Bubble Bust comes up first, the game ends on the spot and the \
most cash after repaying loans wins.";

/// The colour as players say it: "red".
fn colour(colour: Colour) -> &'static str {
    match colour {
        Colour::R => "red",
        Colour::W => "white",
        Colour::Y => "yellow",
    }
}

/// The kind as printed on the card: "B1".
fn kind(kind: Kind) -> &'static str {
    match kind {
        Kind::A => "A",
        Kind::B1 => "B1",
        Kind::B2 => "B2",
        Kind::C1 => "C1",
        Kind::C2 => "C2",
        Kind::C3 => "C3",
    }
}

/// A tulip card without the article: "red B1".
fn tulip(tulip: Tulip) -> String {
    let mut out = String::with_capacity(10);
    push_tulip(&mut out, tulip);
    out
}

/// Appends a tulip card without the article: "red B1". The words of a legal action are
/// written with `push_str` into one string: a listing describes every legal action, and
/// `format!` with a `String` per part cost several times as much (docs/benchmarks.md).
fn push_tulip(out: &mut String, tulip: Tulip) {
    out.push_str(colour(tulip.colour()));
    out.push(' ');
    out.push_str(kind(tulip.kind()));
}

/// A tulip card with its article: "a red B1 tulip".
fn a_tulip(card: Tulip) -> String {
    format!("a {} tulip", tulip(card))
}

/// Appends a card named in an action: "the red B1 tulip". An id that names no card (refused
/// before it could be logged) is told without it.
fn push_named_tulip(out: &mut String, id: &CardId) {
    match id.tulip() {
        Some(card) => push_the_tulips(out, &[card]),
        None => out.push_str("a tulip"),
    }
}

/// Several tulips: "the red B1 and white A tulips"; "no tulips" when empty.
fn the_tulips(cards: &[Tulip]) -> String {
    let mut out = String::with_capacity(16 * cards.len().max(1));
    push_the_tulips(&mut out, cards);
    out
}

/// Appends several tulips as [`the_tulips`] says them.
fn push_the_tulips(out: &mut String, cards: &[Tulip]) {
    if cards.is_empty() {
        out.push_str("no tulips");
        return;
    }
    out.push_str("the ");
    for (index, &card) in cards.iter().enumerate() {
        if index > 0 {
            out.push_str(if index + 1 == cards.len() {
                " and "
            } else {
                ", "
            });
        }
        push_tulip(out, card);
    }
    out.push_str(if cards.len() == 1 {
        " tulip"
    } else {
        " tulips"
    });
}

/// The collector's name: "the Fair Lady".
fn collector(collector: Collector) -> &'static str {
    match collector {
        Collector::Nobleman => "the Nobleman",
        Collector::Clergyman => "the Clergyman",
        Collector::Madame => "Madame",
        Collector::FairLady => "the Fair Lady",
        Collector::Servant => "the Servant",
        Collector::Scholar => "the Scholar",
        Collector::YoungMan => "the Young Man",
        Collector::TavernOwner => "the Tavern Owner",
    }
}

/// A market event card and what it did: "a Crash, which pushed the highest price down two
/// levels".
fn event_card(card: EventCard) -> String {
    match card.effect() {
        EventEffect::Bust => "the Bubble Bust".to_string(),
        EventEffect::Surge => "a Surge, which lifted the lowest price two levels".to_string(),
        EventEffect::Rise(c) => format!(
            "a {} Rise, which lifted the {} price one level",
            colour(c),
            colour(c)
        ),
        EventEffect::Crash => "a Crash, which pushed the highest price down two levels".to_string(),
    }
}

/// The event card's name alone: "a Crash".
fn event_card_name(card: EventCard) -> String {
    match card.effect() {
        EventEffect::Bust => "the Bubble Bust".to_string(),
        EventEffect::Surge => "a Surge".to_string(),
        EventEffect::Rise(c) => format!("a {} Rise", colour(c)),
        EventEffect::Crash => "a Crash".to_string(),
    }
}

/// A price level as printed on the track: "IV".
fn level(level: u8) -> String {
    const ROMAN: [&str; 7] = ["I", "II", "III", "IV", "V", "VI", "VII"];
    usize::from(level)
        .checked_sub(1)
        .and_then(|index| ROMAN.get(index))
        .map_or_else(|| level.to_string(), |roman| (*roman).to_string())
}

/// The track: "red II, white III and yellow IV".
fn track(track: &Track) -> String {
    let parts: Vec<String> = Colour::ALL
        .iter()
        .map(|&c| format!("{} {}", colour(c), level(track.level(c))))
        .collect();
    join_words(&parts)
}

/// Money, with a minus sign spelled out: "ƒ12", "minus ƒ3".
fn money(amount: i64) -> String {
    if amount < 0 {
        format!("minus {}", guilders(amount.unsigned_abs()))
    } else {
        guilders(amount)
    }
}

/// The seats of a set, in seat order.
fn seats(set: SeatSet) -> Vec<Seat> {
    set.iter().collect()
}

/// A seat from its index in a by-seat list.
fn seat_at(index: usize) -> Seat {
    Seat(u8::try_from(index).unwrap_or(u8::MAX))
}

/// `action` by `seat` as a sentence.
pub fn describe_action(action: &Action, seat: Seat, names: &Names) -> String {
    let mut out = names.seat(seat);
    out.reserve(64);
    match action {
        Action::SellToMarket { tulip: id } => {
            out.push_str(" sold ");
            push_named_tulip(&mut out, id);
            out.push_str(" to the market.");
        }
        Action::SellToCollector {
            collector: buyer,
            tulips,
        } => {
            out.push_str(" sold ");
            let cards: Option<Vec<Tulip>> = tulips.iter().map(CardId::tulip).collect();
            match cards {
                Some(cards) => push_the_tulips(&mut out, &cards),
                None => out.push_str("three tulips"),
            }
            out.push_str(" to ");
            out.push_str(collector(*buyer));
            out.push('.');
        }
        Action::BuyBack { tulip: id } => {
            out.push_str(" repaid the loan on ");
            push_named_tulip(&mut out, id);
            out.push('.');
        }
        Action::EndSellingTurn {} => out.push_str(" finished selling."),
        Action::BlackTulipDecision { claim } => out.push_str(if *claim {
            " chose to buy the Black Tulip."
        } else {
            " chose not to buy the Black Tulip."
        }),
        Action::PlaceBids { cards } => {
            let named: Option<Vec<Tulip>> = cards.iter().map(CardId::tulip).collect();
            match (cards.len(), named) {
                (0, _) => out.push_str(" placed no bid markers."),
                (count, Some(named)) => {
                    out.push_str(if count == 1 {
                        " placed a bid marker on "
                    } else {
                        " placed bid markers on "
                    });
                    push_the_tulips(&mut out, &named);
                    out.push('.');
                }
                (count, None) => {
                    out.push_str(&format!(" placed {count} bid markers."));
                }
            }
        }
        Action::AuctionBid { amount } => {
            out.push_str(" bid ");
            out.push_str(&money(*amount));
            out.push('.');
        }
        Action::AuctionPass {} => out.push_str(" left the auction."),
        Action::ChoosePayment { method } => out.push_str(match method {
            PaymentMethod::Cash => " paid in cash.",
            PaymentMethod::Finance => " paid with a loan.",
        }),
    }
    out
}

/// `action` as a button's label in `state`, where it is legal: what the player does, with
/// the market price that decides a sale.
pub fn label_action(state: &TulipBubble, action: &Action) -> String {
    let mut out = String::with_capacity(48);
    match action {
        Action::SellToMarket { tulip: id } => {
            out.push_str("Sell ");
            push_named_tulip(&mut out, id);
            out.push_str(" to the market");
            if let Some(card) = id.tulip() {
                out.push_str(" for ");
                out.push_str(&money(state.price_of(card)));
            }
        }
        Action::SellToCollector {
            collector: buyer,
            tulips,
        } => {
            out.push_str("Sell ");
            let cards: Option<Vec<Tulip>> = tulips.iter().map(CardId::tulip).collect();
            match cards {
                Some(cards) => push_the_tulips(&mut out, &cards),
                None => out.push_str("three tulips"),
            }
            out.push_str(" to ");
            out.push_str(collector(*buyer));
        }
        Action::BuyBack { tulip: id } => {
            out.push_str("Repay the loan on ");
            push_named_tulip(&mut out, id);
        }
        Action::EndSellingTurn {} => out.push_str("Finish selling"),
        Action::BlackTulipDecision { claim } => out.push_str(if *claim {
            "Buy the Black Tulip"
        } else {
            "Do not buy the Black Tulip"
        }),
        Action::PlaceBids { cards } => {
            let named: Option<Vec<Tulip>> = cards.iter().map(CardId::tulip).collect();
            match (cards.len(), named) {
                (0, _) => out.push_str("Place no bid markers"),
                (count, Some(named)) => {
                    out.push_str(if count == 1 {
                        "Bid on "
                    } else {
                        "Bid on each of "
                    });
                    push_the_tulips(&mut out, &named);
                }
                (count, None) => out.push_str(&format!("Place {count} bid markers")),
            }
        }
        Action::AuctionBid { amount } => {
            out.push_str("Bid ");
            out.push_str(&money(*amount));
        }
        Action::AuctionPass {} => out.push_str("Leave the auction"),
        Action::ChoosePayment { method } => out.push_str(match method {
            PaymentMethod::Cash => "Pay in cash",
            PaymentMethod::Finance => "Pay with a loan",
        }),
    }
    out
}

/// The bid markers' placement as a pick of tulips ([`game_core::pick`]): "Choose the tulips
/// to put your bid markers on", each tulip as the labels name it and where it lies, since
/// two cards of a kind may lie side by side: "the red B1 tulip (Just Sold, 2nd card)".
pub fn pick_of(state: &TulipBubble, action: &Action) -> Option<Pick> {
    let Action::PlaceBids { cards } = action else {
        return None;
    };
    let place = |tulip: Tulip| {
        [
            ("New Arrivals", &state.new_arrivals),
            ("Just Sold", &state.just_sold),
        ]
        .into_iter()
        .find_map(|(row, slots)| {
            let at = slots.iter().position(|slot| slot.tulip == tulip)?;
            Some(format!(" ({row}, {} card)", ordinal(at as u64 + 1)))
        })
    };
    Some(Pick {
        field: "cards",
        label: "Choose the tulips to put your bid markers on".to_string(),
        items: cards
            .iter()
            .map(|id| {
                let mut out = String::with_capacity(40);
                push_named_tulip(&mut out, id);
                if let Some(place) = id.tulip().and_then(place) {
                    out.push_str(&place);
                }
                out
            })
            .collect(),
    })
}

/// Whether `event` tells the move `action` itself, with what the action could not say (the
/// price a sale fetched): the log's headline for the move. For a sealed choice (the Black
/// Tulip decision) the API heads the author's entry with the action and everyone else's with
/// the event (which hides the choice until it is revealed).
pub fn restates(action: &Action, event: &Event) -> bool {
    matches!(
        (action, event),
        (Action::SellToMarket { .. }, Event::SoldToMarket { .. })
            | (
                Action::SellToCollector { .. },
                Event::SoldToCollector { .. }
            )
            | (Action::BuyBack { .. }, Event::BoughtBack { .. })
            | (Action::EndSellingTurn {}, Event::SellingTurnEnded { .. })
            | (
                Action::BlackTulipDecision { .. },
                Event::BlackTulipDecisionSubmitted { .. }
            )
            | (Action::PlaceBids { .. }, Event::BidsPlaced { .. })
            | (Action::AuctionBid { .. }, Event::AuctionBid { .. })
            | (Action::AuctionPass {}, Event::AuctionPassed { .. })
            | (Action::ChoosePayment { .. }, Event::TulipBought { .. })
    )
}

/// `event` as a sentence.
pub fn describe_event(event: &Event, names: &Names) -> String {
    match event {
        Event::GameDealt {
            track: opening,
            next_shipment,
            new_arrivals,
            just_sold,
            collectors,
            start_player,
        } => {
            let offered: Vec<String> = collectors
                .iter()
                .flatten()
                .map(|&buyer| collector(buyer).to_string())
                .collect();
            format!(
                "The market opened with prices at {}. The Next Shipment, New Arrivals and Just \
                 Sold were dealt {}, {} and {} tulips; the collectors on offer were {}, and {} \
                 was the start player.",
                track(opening),
                next_shipment.len(),
                new_arrivals.len(),
                just_sold.len(),
                join_words(&offered),
                names.seat(*start_player)
            )
        }
        Event::MarketEvent {
            round,
            card,
            track: after,
        } => match card.effect() {
            EventEffect::Bust => format!("Round {round} opened with the Bubble Bust."),
            EventEffect::Surge | EventEffect::Rise(_) | EventEffect::Crash => format!(
                "Round {round} opened with {}; prices now stand at {}.",
                event_card(*card),
                track(after)
            ),
        },
        Event::ShipmentArrived {
            new_arrivals,
            next_shipment,
            reshuffled,
        } => {
            let reshuffle = if *reshuffled {
                " The discard pile was shuffled into a new deck."
            } else {
                ""
            };
            let shipped = match next_shipment.len() {
                0 => "no new tulips were left to ship".to_string(),
                1 => "1 new tulip came in as the Next Shipment".to_string(),
                count => format!("{count} new tulips came in as the Next Shipment"),
            };
            format!(
                "The shipment arrived: New Arrivals now show {}, and {shipped}.{reshuffle}",
                tulip_list(new_arrivals)
            )
        }
        Event::StartPlayerPassed { seat } => format!(
            "{} became the start player, and the selling began.",
            names.seat(*seat)
        ),
        Event::SoldToMarket {
            seat,
            tulip: card,
            price,
            loan_repaid,
        } => {
            let who = names.seat(*seat);
            match loan_repaid {
                Some(loan) => format!(
                    "{who} sold the financed {} tulip to the market for {} and repaid the {} \
                     loan.",
                    tulip(*card),
                    money(*price),
                    money(*loan)
                ),
                None => format!(
                    "{who} sold {} to the market for {}.",
                    a_tulip(*card),
                    money(*price)
                ),
            }
        }
        Event::SoldToCollector {
            seat,
            collector: buyer,
            tulips,
            amount,
            next_collector,
        } => {
            let next = match next_collector {
                Some(next) => format!("{} took their place", collector(*next)),
                None => "that stack is now empty".to_string(),
            };
            format!(
                "{} sold {} to {} for {}; {next}.",
                names.seat(*seat),
                the_tulips(tulips),
                collector(*buyer),
                money(*amount)
            )
        }
        Event::BoughtBack {
            seat,
            tulip: card,
            loan,
        } => format!(
            "{} repaid a {} loan and took the {} tulip behind the screen.",
            names.seat(*seat),
            money(*loan),
            tulip(*card)
        ),
        Event::SellingTurnEnded { seat } => {
            format!("{}'s selling turn ended.", names.seat(*seat))
        }
        Event::BlackTulipWindowOpened => {
            "The Black Tulip was on offer, and every player decided in secret whether to buy it."
                .to_string()
        }
        Event::BlackTulipDecisionSubmitted { seat, claim } => {
            let who = names.seat(*seat);
            match claim {
                Some(true) => format!("{who} secretly decided to buy the Black Tulip."),
                Some(false) => format!("{who} secretly decided not to buy the Black Tulip."),
                None => format!("{who} made a secret decision about the Black Tulip."),
            }
        }
        Event::BlackTulipWindowClosed { claimants } => {
            if claimants.is_empty() {
                "The decisions were revealed: nobody bought the Black Tulip.".to_string()
            } else {
                format!(
                    "The decisions were revealed: {} claimed the Black Tulip.",
                    names.list(seats(*claimants))
                )
            }
        }
        Event::PlacementPassStarted { pass } => match pass {
            1 => "Bidding began: each player may place up to two bid markers.".to_string(),
            2 => "The second bidding pass began: each player may place one more bid marker."
                .to_string(),
            other => format!("Bidding pass {other} began."),
        },
        Event::BidsPlaced {
            seat,
            pass: _,
            cards,
        } => {
            let who = names.seat(*seat);
            match cards.len() {
                0 => format!("{who} placed no bid markers."),
                1 => format!("{who} placed a bid marker on {}.", the_tulips(cards)),
                _ => format!("{who} placed bid markers on {}.", the_tulips(cards)),
            }
        }
        Event::AuctionStarted {
            tulip: card,
            market_price,
            participants,
        } => format!(
            "{} marked the {} tulip, so it went to auction; bids must beat its market price \
             of {}.",
            names.list(participants.iter().copied()),
            tulip(*card),
            money(*market_price)
        ),
        Event::AuctionBid { seat, amount } => {
            format!(
                "{} raised the bid to {}.",
                names.seat(*seat),
                money(*amount)
            )
        }
        Event::AuctionPassed { seat } => {
            format!("{} dropped out of the auction.", names.seat(*seat))
        }
        Event::PurchaseDue {
            tulip: card,
            buyer,
            price,
            auction,
        } => {
            let who = names.seat(*buyer);
            if *auction {
                format!(
                    "{who} won the auction for the {} tulip at {}.",
                    tulip(*card),
                    money(*price)
                )
            } else {
                format!(
                    "{who} was the only bidder on the {} tulip and owed its market price of {}.",
                    tulip(*card),
                    money(*price)
                )
            }
        }
        Event::TulipBought {
            seat,
            tulip: card,
            price,
            method,
        } => {
            let who = names.seat(*seat);
            match method {
                PaymentMethod::Cash => format!(
                    "{who} paid {} in cash for the {} tulip and put it behind the screen.",
                    money(*price),
                    tulip(*card)
                ),
                PaymentMethod::Finance => format!(
                    "{who} took a {} loan for the {} tulip and left it face up.",
                    money(*price),
                    tulip(*card)
                ),
            }
        }
        Event::PremiumPaid {
            seats: receivers,
            amount,
        } => {
            let each = if receivers.len() > 1 { " each" } else { "" };
            format!(
                "{}{each} received a premium of {} from the winning bid.",
                names.list(seats(*receivers)),
                money(*amount)
            )
        }
        Event::MarketResponse {
            counts,
            track: after,
        } => {
            let shown: Vec<String> = Colour::ALL
                .iter()
                .zip(counts)
                .map(|(&c, count)| format!("{count} {}", colour(c)))
                .collect();
            format!(
                "The market responded to the {} tulips on show; prices now stand at {}.",
                join_words(&shown),
                track(after)
            )
        }
        Event::TulipsDiscarded { tulips } => match tulips.len() {
            0 => "No unsold tulips were left to discard.".to_string(),
            1 => "The 1 unsold tulip was discarded.".to_string(),
            count => format!("The {count} unsold tulips were discarded."),
        },
        Event::GameEnded {
            reason,
            winners,
            cash: _,
            scores,
            removed_event,
        } => {
            let winner_names = names.list(seats(*winners));
            let ending = match reason {
                EndReason::Bust => {
                    let mut order: Vec<usize> = (0..scores.len()).collect();
                    order.sort_by_key(|&index| (std::cmp::Reverse(scores[index]), index));
                    let table: Vec<String> = order
                        .iter()
                        .map(|&index| {
                            format!("{} {}", names.seat(seat_at(index)), money(scores[index]))
                        })
                        .collect();
                    let won = if winners.len() > 1 {
                        "shared the win"
                    } else {
                        "won"
                    };
                    format!(
                        "The Bubble Bust ended the game and {winner_names} {won}. Scores after \
                         loans: {}.",
                        join_words(&table)
                    )
                }
                EndReason::BlackTulip => {
                    let won = if winners.len() > 1 {
                        "bought the Black Tulip and shared the win"
                    } else {
                        "bought the Black Tulip and won the game"
                    };
                    format!("{winner_names} {won}.")
                }
            };
            format!(
                "{ending} The event card set aside at the start was {}.",
                event_card_name(*removed_event)
            )
        }
    }
}

/// Tulips listed without articles: "red A, white B1 and yellow C3 tulips".
fn tulip_list(cards: &[Tulip]) -> String {
    match cards {
        [] => "no tulips".to_string(),
        [one] => a_tulip(*one),
        many => {
            let names: Vec<String> = many.iter().map(|&card| tulip(card)).collect();
            format!("{} tulips", join_words(&names))
        }
    }
}
