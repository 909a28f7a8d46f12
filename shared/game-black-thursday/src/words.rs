//! The log in words: each command and event as a sentence a player understands (the
//! `describe_action` and `describe_event` of [`game_core::Game`]), and the summary of the
//! game for players choosing one.
//!
//! Conventions: companies by their theme names (the suit is in each name: Sun Textiles,
//! Sickle Moon Steel, Crown Petroleum, Clean Arms Chemical); a coin is a *certificate* named
//! by its public handle with what the event shows of it, `h7 (Sickle Moon Steel, 3 shares)`
//! in a copy for someone who knows the value, `h7 (Sickle Moon Steel)` in a redacted twin;
//! a space is `space (x, y)` as the view gives it. A sentence says only what its own event
//! carries, so a redacted twin never says a value.
//!
//! Every `match` lists every variant, so a new command or event does not compile without
//! its sentence.

use crate::action::{Action, Exit, MoveTarget, Term};
use crate::event::{CoinInfo, DrawReason, Event, OpeningRoll, Standing, Transfer};
use crate::ids::Handle;
use crate::pieces::{Piece, Space, Suit};
use crate::state::{BlackThursday, Claim, Offer, SessionStatus};
use game_core::words::{join_words, ordinal, Names};
use game_core::Seat;

/// What the game is about, for players choosing one.
pub const SUMMARY: &str = "October 1929: the stock market is crashing, and each player is an \
investor hurrying down a skyscraper while trying to get rid of stock; whoever holds the fewest \
shares at the end wins, with fewer certificates breaking a tie. On a turn a die grants action \
points to step one floor down, draw stock from the market bag, swap some back, or open a \
trading session to bargain over certificates, secrets, action points and promises. Landing on \
a company's window forces a sale of that company's stock, and an investor who cannot sell \
jumps and is handed certificates by the others. The game ends when at most one investor is \
left inside the building.";

/// The company a suit stands for.
pub fn company(suit: Suit) -> &'static str {
    match suit {
        Suit::Suns => "Sun Textiles",
        Suit::Moons => "Sickle Moon Steel",
        Suit::Crowns => "Crown Petroleum",
        Suit::Arms => "Clean Arms Chemical",
    }
}

/// `n` of `thing`, plural with an `s` unless `n` is 1: "1 share", "3 shares".
fn count(n: impl Into<u64>, thing: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// The shares of a coin's value: "preferred" for the null, else "3 shares".
fn worth(value: u8) -> String {
    if value == 0 {
        "preferred".to_string()
    } else {
        count(value, "share")
    }
}

/// A coin as its event shows it: "h7 (Sickle Moon Steel, 3 shares)", or without the value
/// where the event has none.
fn coin(info: &CoinInfo) -> String {
    match info.value {
        Some(value) => format!("{} ({}, {})", info.handle, company(info.suit), worth(value)),
        None => format!("{} ({})", info.handle, company(info.suit)),
    }
}

fn coins(infos: &[CoinInfo]) -> String {
    let words: Vec<String> = infos.iter().map(coin).collect();
    join_words(&words)
}

fn handles(handles: &[Handle]) -> String {
    let words: Vec<String> = handles.iter().map(Handle::to_string).collect();
    join_words(&words)
}

/// Words joined as alternatives: "a", "a or b", "a, b or c".
fn join_or(words: &[String]) -> String {
    match words {
        [] => "nothing".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// A space as players count it: columns from the left and rows from the roof, from 1 (the
/// spec's `(x, y)` count from 0).
fn space(space: Space) -> String {
    format!(
        "column {}, row {}",
        u32::from(space.x) + 1,
        u32::from(space.y) + 1
    )
}

/// A slot of the building as players count it, from 1 (slot ids count from 0).
fn slot(slot: u16) -> u32 {
    u32::from(slot) + 1
}

fn tile(piece: Piece) -> String {
    format!("the {} {}", company(piece.suit), piece.value)
}

/// The corner of a tile's great window at `rotation` (spec §1.2, `PQ`).
fn great_window_corner(rotation: u16) -> &'static str {
    match rotation {
        0 => "top left",
        90 => "top right",
        180 => "bottom right",
        _ => "bottom left",
    }
}

fn rotation_words(rotation: u16) -> String {
    match rotation {
        0 => "left upright".to_string(),
        90 | 180 | 270 => format!("turned {rotation} degrees clockwise"),
        other => format!("turned {other} degrees"),
    }
}

/// Free text from a player (a promise), quoted: characters that read as markup become
/// plain ones (`"` an apostrophe, brackets parentheses, `_` a space, line breaks spaces),
/// so the sentence stays plain words whatever was typed.
fn quote(text: &str) -> String {
    let plain: String = text
        .chars()
        .map(|c| match c {
            '"' => '\'',
            '{' | '[' => '(',
            '}' | ']' => ')',
            '_' => ' ',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    let plain = plain
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("None", "none")
        .replace("Some(", "Some (");
    format!("“{plain}”")
}

/// Ends `text` with a period, unless it already ends a sentence inside a closing quote.
fn period(mut text: String) -> String {
    if !(text.ends_with(".”") || text.ends_with("!”") || text.ends_with("?”")) {
        text.push('.');
    }
    text
}

/// What a value assertion demands of the coins it covers.
fn assertion(values: &[u8], many: bool) -> String {
    let mut values = values.to_vec();
    values.sort_unstable();
    values.dedup();
    let demand = match values.as_slice() {
        [0] => "be preferred".to_string(),
        [1, 2, 3, 4, 5] => "be common stock".to_string(),
        [1] => "be worth 1 share".to_string(),
        _ => {
            let numbers: Vec<String> = values.iter().map(u8::to_string).collect();
            format!("be worth {} shares", join_or(&numbers))
        }
    };
    if many {
        format!(", each of which must {demand}")
    } else {
        format!(", which must {demand}")
    }
}

/// One term of an offer, as a clause: "Ben gives Anna h3, which must be preferred".
fn term(term: &Term, names: &Names) -> String {
    match term {
        Term::Coins {
            giver,
            receiver,
            handles: coins,
            values,
        } => {
            let demand = match values {
                Some(values) if !values.is_empty() => assertion(values, coins.len() > 1),
                Some(_) | None => String::new(),
            };
            format!(
                "{} gives {} {}{demand}",
                names.seat(*giver),
                names.seat(*receiver),
                handles(coins)
            )
        }
        Term::Reveal {
            from,
            to,
            handles: coins,
        } => format!(
            "{} shows {} the {} of {}",
            names.seat(*from),
            names.seat(*to),
            if coins.len() == 1 { "value" } else { "values" },
            handles(coins)
        ),
        Term::ShareKnowledge { from, to, about } => format!(
            "{} tells {} every value {} knows of the certificates {} holds",
            names.seat(*from),
            names.seat(*to),
            names.seat(*from),
            names.seat(*about)
        ),
        Term::ActionPoints { from, to, amount } => format!(
            "{} gives {} {}",
            names.seat(*from),
            names.seat(*to),
            count(*amount, "action point")
        ),
        Term::Promise {
            promisor,
            promisee,
            text,
        } => format!(
            "{} promises {} {}",
            names.seat(*promisor),
            names.seat(*promisee),
            quote(text)
        ),
    }
}

/// The terms of an offer after a colon, or "nothing for nothing".
fn terms(terms: &[Term], names: &Names) -> String {
    if terms.is_empty() {
        return "nothing for nothing".to_string();
    }
    let clauses: Vec<String> = terms.iter().map(|t| term(t, names)).collect();
    clauses.join("; ")
}

/// Coins moved, grouped by giver and receiver in the order of the event, each group by
/// handle: "Ben gave Anna h3 (Sun Textiles) and h4 (Crown Petroleum)".
fn transfers(moved: &[Transfer], verb: &str, names: &Names) -> Vec<String> {
    let mut groups: Vec<(Seat, Seat, Vec<CoinInfo>)> = Vec::new();
    for transfer in moved {
        match groups.last_mut() {
            Some((from, to, infos)) if *from == transfer.from && *to == transfer.to => {
                infos.push(transfer.coin.clone());
            }
            _ => groups.push((transfer.from, transfer.to, vec![transfer.coin.clone()])),
        }
    }
    for (_, _, infos) in &mut groups {
        infos.sort_by_key(|info| info.handle);
    }
    groups
        .iter()
        .map(|(from, to, infos)| {
            format!(
                "{} {verb} {} {}",
                names.seat(*from),
                names.seat(*to),
                coins(infos)
            )
        })
        .collect()
}

/// One contender's rolls in a round of the opening roll: "Ben rolled 2 after a null".
fn opening_roll(roll: &OpeningRoll, names: &Names) -> String {
    let who = names.seat(roll.seat);
    let (last, nulls) = match roll.rolls.split_last() {
        Some((last, before)) => (*last, before.len()),
        None => return format!("{who} did not roll"),
    };
    match nulls {
        0 => format!("{who} rolled {last}"),
        1 => format!("{who} rolled {last} after a null"),
        n => format!("{who} rolled {last} after {n} nulls"),
    }
}

fn standing(standing: &Standing, names: &Names) -> String {
    format!(
        "{} {} with {} on {}",
        names.seat(standing.seat),
        ordinal(standing.rank),
        count(standing.common, "share"),
        count(standing.certs, "certificate")
    )
}

fn game_ended(standings: &[Standing], names: &Names) -> String {
    let mut ranked: Vec<&Standing> = standings.iter().collect();
    ranked.sort_by_key(|s| (s.rank, s.seat));
    let winners: Vec<&Standing> = ranked.iter().copied().filter(|s| s.rank == 1).collect();
    let rest: Vec<String> = ranked
        .iter()
        .filter(|s| s.rank != 1)
        .map(|s| standing(s, names))
        .collect();
    let head = match winners.as_slice() {
        [] => "The game ended".to_string(),
        [one] => format!(
            "The game ended and {} won with {} on {}",
            names.seat(one.seat),
            count(one.common, "share"),
            count(one.certs, "certificate")
        ),
        [first, ..] => format!(
            "The game ended in a draw between {}, with {} on {} each",
            names.list(winners.iter().map(|s| s.seat)),
            count(first.common, "share"),
            count(first.certs, "certificate")
        ),
    };
    if rest.is_empty() {
        format!("{head}. Every certificate is now revealed.")
    } else {
        format!(
            "{head}; then came {}. Every certificate is now revealed.",
            join_words(&rest)
        )
    }
}

fn die_rolled(who: &str, die: u8, ap: u32, bonus_used: u32, debt_paid: u32) -> String {
    if die == 0 {
        return format!("{who} rolled a null: an opportunity to flip a tile.");
    }
    if ap == 0 && bonus_used == 0 && debt_paid == 0 {
        // Only a jumped player's roll gives nothing without a debt to pay.
        return format!(
            "{who} rolled {die}, which gives a player who has jumped no action points."
        );
    }
    let mut steps = vec![format!("{who} rolled {die}")];
    if bonus_used > 0 {
        steps.push(format!("added a bonus of {bonus_used}"));
    }
    if debt_paid > 0 {
        steps.push(format!("paid back a debt of {debt_paid}"));
    }
    let result = if ap == 0 {
        "had no action points left".to_string()
    } else {
        format!("had {}", count(ap, "action point"))
    };
    steps.push(result);
    format!("{}.", join_words(&steps))
}

fn jumped(seat: Seat, penalty: u8, received: &[Transfer], names: &Names) -> String {
    let window = if penalty >= 2 {
        "a great window"
    } else {
        "a window"
    };
    let head = format!(
        "{} missed the sale at {window} and jumped.",
        names.seat(seat)
    );
    if received.is_empty() {
        format!("{head} Nobody still in the building had a certificate to hand over.")
    } else {
        format!(
            "{head} {}.",
            transfers(received, "handed", names).join("; ")
        )
    }
}

fn offer_posted(offer: &Offer, names: &Names) -> String {
    let counter = match offer.counters {
        Some(countered) => format!(" as a counter to {countered}"),
        None => String::new(),
    };
    period(format!(
        "{} posted offer {}{counter}: {}",
        names.seat(offer.author),
        offer.id,
        terms(&offer.terms, names)
    ))
}

fn claim_filed(claim: &Claim, names: &Names) -> String {
    format!(
        "{} filed claim {} against {} for breaking promise {}; {} {} on the jury.",
        names.seat(claim.claimant),
        claim.id,
        names.seat(claim.accused),
        claim.promise,
        names.list(claim.jury.iter()),
        if claim.jury.len() == 1 { "sits" } else { "sit" }
    )
}

/// `action` by `seat` as a sentence.
pub fn describe_action(action: &Action, seat: Seat, names: &Names) -> String {
    let who = names.seat(seat);
    match action {
        Action::PlacePawn { space: at } => {
            format!("{who} placed a pawn on the roof at {}.", space(*at))
        }
        Action::FlipTile { slot: at } => format!("{who} flipped the tile in slot {}.", slot(*at)),
        Action::OrientTile { rotation } => match rotation {
            0 => format!("{who} left the newly revealed tile upright."),
            _ => format!("{who} turned the newly revealed tile {rotation} degrees clockwise."),
        },
        Action::Move { to } => match to {
            MoveTarget::Space(to) => format!("{who} moved down to {}.", space(*to)),
            MoveTarget::Exit(Exit::Exit) => {
                format!("{who} left the building by the ground floor.")
            }
        },
        Action::Sell { handles: sold } => {
            format!("{who} sold {} at the window.", handles(sold))
        }
        Action::Buy => format!("{who} bought a certificate from the market."),
        Action::MarketTrade { handles: returned } => format!(
            "{who} traded {} back to the market for as many new certificates.",
            handles(returned)
        ),
        Action::OpenSession {
            with_seats,
            pass_at_once,
        } => {
            let with = names.list(with_seats.iter().copied());
            if *pass_at_once {
                format!("{who} opened a trading session with {with} and abandoned it at once.")
            } else {
                format!("{who} opened a trading session with {with}.")
            }
        }
        Action::PostOffer {
            session,
            terms: offered,
            counters,
        } => {
            let what = match counters {
                Some(countered) => {
                    format!("{who} countered offer {countered} in session {session}")
                }
                None => format!("{who} made an offer in session {session}"),
            };
            period(format!("{what}: {}", terms(offered, names)))
        }
        Action::WithdrawOffer { offer } => format!("{who} withdrew offer {offer}."),
        Action::AcceptOffer { offer } => format!("{who} accepted offer {offer}."),
        Action::RevokeAcceptance { session } => {
            format!("{who} took back an acceptance in session {session}.")
        }
        Action::LeaveSession { session } => format!("{who} left session {session}."),
        Action::FileClaim { promise } => {
            format!("{who} claimed that promise {promise} was broken.")
        }
        Action::ConcedeClaim { claim } => format!("{who} conceded claim {claim}."),
        Action::VoteClaim { claim, uphold } => {
            let vote = if *uphold { "uphold" } else { "dismiss" };
            format!("{who} voted to {vote} claim {claim}.")
        }
        Action::WaivePromise { promise } => format!("{who} waived promise {promise}."),
    }
}

/// `action` as a button's label: what the player does, in the imperative, with the
/// certificates, offers and players it names.
pub fn label_action(state: &BlackThursday, action: &Action, names: &Names) -> String {
    // An offer of the open session by its author and terms, not its id ("o3").
    let offer = |id: &crate::ids::OfferId| {
        state
            .session
            .as_ref()
            .and_then(|session| session.offers.iter().find(|offer| offer.id == *id))
    };
    match action {
        Action::PlacePawn { space: at } => format!("Place your pawn on the roof at {}", space(*at)),
        Action::FlipTile { slot: at } => format!("Flip the tile in slot {}", slot(*at)),
        Action::OrientTile { rotation } => match rotation {
            0 => "Leave the new tile upright".to_string(),
            _ => format!("Turn the new tile {rotation} degrees clockwise"),
        },
        Action::Move { to } => match to {
            MoveTarget::Space(to) => format!("Move down to {}", space(*to)),
            MoveTarget::Exit(Exit::Exit) => "Leave the building by the ground floor".to_string(),
        },
        Action::Sell { handles: sold } => format!("Sell {} at the window", handles(sold)),
        Action::Buy => "Buy a certificate from the market".to_string(),
        Action::MarketTrade { handles: returned } => {
            format!("Trade {} back to the market", handles(returned))
        }
        Action::OpenSession {
            with_seats,
            pass_at_once,
        } => {
            let with = names.list(with_seats.iter().copied());
            if *pass_at_once {
                format!("Open a trading session with {with} and abandon it at once")
            } else {
                format!("Open a trading session with {with}")
            }
        }
        Action::PostOffer {
            terms: offered,
            counters,
            ..
        } => match counters {
            Some(countered) => match offer(countered) {
                Some(found) => format!(
                    "Counter {}'s offer with: {}",
                    names.seat(found.author),
                    terms(offered, names)
                ),
                None => format!("Counter offer {countered}: {}", terms(offered, names)),
            },
            None => format!("Offer {}", terms(offered, names)),
        },
        Action::WithdrawOffer { offer: id } => match offer(id) {
            Some(found) => format!("Withdraw your offer: {}", terms(&found.terms, names)),
            None => format!("Withdraw offer {id}"),
        },
        Action::AcceptOffer { offer: id } => match offer(id) {
            Some(found) => format!(
                "Accept {}'s offer: {}",
                names.seat(found.author),
                terms(&found.terms, names)
            ),
            None => format!("Accept offer {id}"),
        },
        Action::RevokeAcceptance { .. } => "Take back your acceptance".to_string(),
        Action::LeaveSession { .. } => "Leave the trading session".to_string(),
        Action::FileClaim { promise } => format!("Claim that promise {promise} was broken"),
        Action::ConcedeClaim { claim } => format!("Concede claim {claim}"),
        Action::VoteClaim { claim, uphold } => {
            let vote = if *uphold { "uphold" } else { "dismiss" };
            format!("Vote to {vote} claim {claim}")
        }
        Action::WaivePromise { promise } => format!("Waive promise {promise}"),
    }
}

/// Whether `event` tells the move `action` itself, with what the action could not say (the
/// tile a flip showed, the certificates a purchase drew): the log's headline for the move.
pub fn restates(action: &Action, event: &Event) -> bool {
    matches!(
        (action, event),
        (Action::PlacePawn { .. }, Event::PawnPlaced { .. })
            | (Action::FlipTile { .. }, Event::TileFlipped { .. })
            | (Action::OrientTile { .. }, Event::TileOriented { .. })
            | (Action::Move { .. }, Event::PawnMoved { .. })
            | (
                Action::Sell { .. } | Action::MarketTrade { .. },
                Event::CoinsReturned { .. }
            )
            | (Action::Buy, Event::CoinsDrawn { .. })
            | (Action::OpenSession { .. }, Event::SessionOpened { .. })
            | (Action::PostOffer { .. }, Event::OfferPosted { .. })
            | (Action::WithdrawOffer { .. }, Event::OfferWithdrawn { .. })
            | (Action::AcceptOffer { .. }, Event::OfferAccepted { .. })
            | (
                Action::RevokeAcceptance { .. },
                Event::AcceptanceRevoked { .. }
            )
            | (
                Action::LeaveSession { .. },
                Event::SessionClosed {
                    left_by: Some(_),
                    ..
                }
            )
            | (Action::FileClaim { .. }, Event::ClaimFiled { .. })
            | (Action::ConcedeClaim { .. }, Event::ClaimConceded { .. })
            | (Action::VoteClaim { .. }, Event::ClaimVoted { .. })
            | (Action::WaivePromise { .. }, Event::PromiseWaived { .. })
    )
}

/// `event` as a sentence: only what the event itself carries.
pub fn describe_event(event: &Event, names: &Names) -> String {
    match event {
        Event::OpeningRolled { rounds, first } => {
            let mut parts = Vec::new();
            for (i, round) in rounds.iter().enumerate() {
                let rolls: Vec<String> = round.iter().map(|r| opening_roll(r, names)).collect();
                let lead = if i == 0 {
                    "In the opening roll"
                } else {
                    "in a roll-off"
                };
                parts.push(format!("{lead} {}", join_words(&rolls)));
            }
            format!("{}. {} plays first.", parts.join("; "), names.seat(*first))
        }
        Event::CoinsDrawn {
            seat,
            reason,
            coins: drawn,
        } => {
            let who = names.seat(*seat);
            match reason {
                DrawReason::Deal => format!(
                    "{who} was dealt {}: {}.",
                    count(drawn.len() as u64, "certificate"),
                    coins(drawn)
                ),
                DrawReason::Buy => format!("{who} bought {} from the market.", coins(drawn)),
                DrawReason::MarketTrade => {
                    format!("{who} drew {} from the market in exchange.", coins(drawn))
                }
            }
        }
        Event::CoinsReturned {
            seat,
            sale,
            coins: returned,
        } => {
            let who = names.seat(*seat);
            if *sale {
                format!("{who} sold {} into the market.", coins(returned))
            } else {
                format!("{who} put {} back into the market.", coins(returned))
            }
        }
        Event::TurnStarted { turn, seat } => {
            format!("{}'s turn began (turn {turn}).", names.seat(*seat))
        }
        Event::PawnPlaced { seat, space: at } => {
            format!(
                "{}'s pawn entered the roof at {}.",
                names.seat(*seat),
                space(*at)
            )
        }
        Event::DieRolled {
            seat,
            die,
            ap,
            bonus_used,
            debt_paid,
        } => die_rolled(&names.seat(*seat), *die, *ap, *bonus_used, *debt_paid),
        Event::TileFlipped {
            slot: at,
            face_up,
            tile: piece,
        } => {
            if *face_up {
                format!(
                    "The tile in slot {} was turned face up, showing {}: its spaces became {} windows.",
                    slot(*at),
                    tile(*piece),
                    company(piece.suit)
                )
            } else {
                format!(
                    "The tile in slot {}, {}, was turned face down: its spaces became offices again.",
                    slot(*at),
                    tile(*piece)
                )
            }
        }
        Event::TileOriented { slot: at, rotation } => format!(
            "The tile in slot {} was {}, with its great window at the {}.",
            slot(*at),
            rotation_words(*rotation),
            great_window_corner(*rotation)
        ),
        Event::PawnMoved { seat, to } => match to {
            Some(to) => format!("{}'s pawn reached {}.", names.seat(*seat), space(*to)),
            None => format!(
                "{} left the building and is out of the market.",
                names.seat(*seat)
            ),
        },
        Event::Jumped {
            seat,
            penalty,
            received,
        } => jumped(*seat, *penalty, received, names),
        Event::TurnEnded { seat, ap_forfeited } => {
            if *ap_forfeited == 0 {
                format!("{}'s turn ended.", names.seat(*seat))
            } else {
                format!(
                    "{}'s turn ended and {} {} lost.",
                    names.seat(*seat),
                    count(*ap_forfeited, "unspent action point"),
                    if *ap_forfeited == 1 { "was" } else { "were" }
                )
            }
        }
        Event::SessionOpened {
            session,
            participants,
            passed,
        } => {
            let who = names.list(participants.iter());
            if *passed {
                format!("Session {session} for {who} was opened and abandoned at once.")
            } else {
                format!("Session {session} opened for {who}.")
            }
        }
        Event::OfferPosted { offer } => offer_posted(offer, names),
        Event::OfferWithdrawn { offer } => format!("Offer {offer} was withdrawn."),
        Event::OffersFailed { offers } => {
            let ids: Vec<String> = offers.iter().map(ToString::to_string).collect();
            if ids.len() == 1 {
                format!(
                    "Offer {} failed because a penalty moved a certificate it named.",
                    ids[0]
                )
            } else {
                format!(
                    "Offers {} failed because a penalty moved certificates they named.",
                    join_words(&ids)
                )
            }
        }
        Event::OfferAccepted { seat, offer } => {
            format!("{} accepted offer {offer}.", names.seat(*seat))
        }
        Event::AcceptanceRevoked { seat } => {
            format!("{} no longer accepts any offer.", names.seat(*seat))
        }
        Event::AgreementExecuted {
            agreement,
            offer,
            transfers: moved,
            promises,
        } => {
            let mut parts = transfers(moved, "gave", names);
            let ids: Vec<String> = promises.iter().map(ToString::to_string).collect();
            match ids.len() {
                0 => {}
                1 => parts.push(format!("promise {} was recorded", ids[0])),
                _ => parts.push(format!("promises {} were recorded", join_words(&ids))),
            }
            if parts.is_empty() {
                format!("Offer {offer} was carried out as agreement {agreement}.")
            } else {
                format!(
                    "Offer {offer} was carried out as agreement {agreement}: {}.",
                    parts.join("; ")
                )
            }
        }
        Event::SessionClosed {
            session,
            status,
            left_by,
        } => match (status, left_by) {
            (SessionStatus::Agreed, _) => format!("Session {session} closed with an agreement."),
            (SessionStatus::Abandoned, Some(seat)) => format!(
                "{} left session {session}, which closed without an agreement.",
                names.seat(*seat)
            ),
            (SessionStatus::Abandoned, None) => {
                format!("Session {session} closed without an agreement.")
            }
            (SessionStatus::Open, _) => format!("Session {session} is still open."),
        },
        Event::ValuesLearned {
            seat,
            coins: learned,
        } => format!(
            "{} learned the {} of {}.",
            names.seat(*seat),
            if learned.len() == 1 {
                "value"
            } else {
                "values"
            },
            coins(learned)
        ),
        Event::ClaimFiled { claim } => claim_filed(claim, names),
        Event::ClaimVoted {
            claim,
            seat,
            uphold,
        } => {
            let vote = if *uphold { "uphold" } else { "dismiss" };
            format!("{} voted to {vote} claim {claim}.", names.seat(*seat))
        }
        Event::ClaimConceded { claim } => format!("The accused conceded claim {claim}."),
        Event::ClaimDecided {
            claim,
            upheld,
            moved,
        } => {
            if !*upheld {
                format!("Claim {claim} was dismissed and no certificates changed hands.")
            } else if moved.is_empty() {
                format!(
                    "Claim {claim} was upheld, but the claimant had no certificates to hand over."
                )
            } else {
                format!(
                    "Claim {claim} was upheld: as the penalty {}.",
                    transfers(moved, "handed", names).join("; ")
                )
            }
        }
        Event::PromiseWaived { promise } => format!("Promise {promise} was waived."),
        Event::GameEnded { standings, .. } => game_ended(standings, names),
    }
}
