//! What the bots call a sensible move (`Game::sensible`): a bid no higher than what the tulip
//! could bring back. Everything here reads public fields only (the lot, the track).

use crate::action::Action;
use crate::cards::price;
use crate::state::{Phase, TulipBubble};
use game_core::Seat;

/// How many levels above its colour's current one a bot expects a tulip could still sell.
/// Two is the most one market event moves a marker (`SURGE`); every Market Response moves it
/// by one.
pub const HOPED_RISE: u8 = 2;

/// The most a bot bids for the tulip on auction: its price two levels above its colour's
/// current one (level VII at most). A tulip scores nothing at the end of the game (§6.2): it
/// is worth only what it sells for, to the market or inside a collector's set. So no bot
/// bids more than 40 fl (a rank-A tulip at VII), below every table's starting cash (60 fl at
/// three seats); `None` outside an auction.
pub fn worth_of_lot(game: &TulipBubble) -> Option<i64> {
    let Phase::Auction { auction, .. } = &game.phase else {
        return None;
    };
    let tulip = auction.tulip;
    let level = game
        .track
        .level(tulip.colour())
        .saturating_add(HOPED_RISE)
        .min(7);
    Some(price(tulip.rank(), level, game.options.a_price_low))
}

/// Whether `action` is a move a person playing to win might make: a bid within
/// [`worth_of_lot`]. Every other legal move is.
pub fn sensible(game: &TulipBubble, _seat: Seat, action: &Action) -> bool {
    match action {
        Action::AuctionBid { amount } => worth_of_lot(game).is_some_and(|worth| *amount <= worth),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Options;
    use game_core::{Game, GameRng, LegalAction};

    /// In a fresh deal's first auction, a bid at the minimum is sensible when the lot is
    /// worth it, and a bid above the worth never is.
    #[test]
    fn bids_above_the_worth_of_the_lot_are_not_sensible() {
        let mut checked = 0;
        for seed in 0..40u8 {
            let (mut game, _) = TulipBubble::setup(
                3,
                &Options::default(),
                &mut GameRng::for_entry([seed; 32], 0),
            )
            .expect("a deal");
            let mut rng = GameRng::for_entry([seed; 32], 1);
            // Play until an auction opens: everyone marks the first card it may.
            for _ in 0..200 {
                if worth_of_lot(&game).is_some() {
                    break;
                }
                let seat = game.waiting_on().iter().next().expect("someone to move");
                let legal = game.legal_actions(seat);
                let action = legal
                    .iter()
                    .rev()
                    .find_map(|entry| match entry {
                        LegalAction::Action { action } => Some(action.clone()),
                        LegalAction::Schema { .. } => None,
                    })
                    .expect("a complete action");
                game.apply(seat, action, &mut rng)
                    .expect("a listed action applies");
            }
            let Some(worth) = worth_of_lot(&game) else {
                continue;
            };
            let seat = game.waiting_on().iter().next().expect("a bidder");
            let minimum = game.minimum_bid().expect("an auction has a minimum bid");
            assert!(worth <= 40, "{worth}");
            assert!(!sensible(
                &game,
                seat,
                &Action::AuctionBid { amount: worth + 1 }
            ));
            assert_eq!(
                sensible(&game, seat, &Action::AuctionBid { amount: minimum }),
                minimum <= worth
            );
            assert!(sensible(&game, seat, &Action::AuctionPass {}));
            checked += 1;
        }
        assert!(checked >= 10, "only {checked} deals reached an auction");
    }
}
