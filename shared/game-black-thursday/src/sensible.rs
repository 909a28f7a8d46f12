//! What the bots call a sensible move (`Game::sensible`): trading as a person trades. Every
//! check reads public fields only (sessions, offers and their terms are public).

use crate::action::{Action, Term};
use crate::state::BlackThursday;
use game_core::Seat;

/// Whether `seat` gives something by `terms` (coins, a reveal, knowledge, action points or a
/// promise).
fn gives(seat: Seat, terms: &[Term]) -> bool {
    terms.iter().any(|term| term.parties().0 == seat)
}

/// Whether `seat` receives something by `terms`.
fn gets(seat: Seat, terms: &[Term]) -> bool {
    terms.iter().any(|term| term.parties().1 == seat)
}

/// Whether `action` by `seat` is a move a person playing to win might make:
/// - an offer asks for something in return (it is not empty, and its author receives by
///   it), and repeats no offer already posted in the session;
/// - an acceptance does not give something away for nothing;
/// - the initiator does not leave a session in which nobody has offered anything yet (to
///   spend an action point without trading, `open_session` with `pass` does it in one move).
///
/// Everything else the rules allow is sensible.
pub fn sensible(game: &BlackThursday, seat: Seat, action: &Action) -> bool {
    let session = game.open_session();
    match action {
        Action::PostOffer { terms, .. } => {
            !terms.is_empty()
                && gets(seat, terms)
                && !session
                    .is_some_and(|session| session.offers.iter().any(|offer| offer.terms == *terms))
        }
        Action::AcceptOffer { offer } => session
            .and_then(|session| session.offer(*offer))
            .is_none_or(|offer| !gives(seat, &offer.terms) || gets(seat, &offer.terms)),
        Action::LeaveSession { .. } => {
            session.is_none_or(|session| session.initiator != seat || !session.offers.is_empty())
        }
        _ => true,
    }
}
