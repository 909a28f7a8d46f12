//! What a seat may do now: `legal_actions`, every candidate filtered through `check`.

use crate::action::Action;
use crate::pieces::Card;
use crate::state::{Phase, Tulipmania};
use game_core::{LegalAction, Seat};

impl Tulipmania {
    /// Everything `seat` may do now, in the order of spec §4.0.
    pub fn legal_actions(&self, seat: Seat) -> Vec<LegalAction<Action>> {
        if !self.acting_seats().contains(seat) {
            return Vec::new();
        }
        let current = self.current_player.index();
        let candidates: Vec<Action> = match &self.phase {
            Phase::SellChoice => {
                let mut list: Vec<Action> = self
                    .live_colours()
                    .filter(|colour| self.tulips[current][colour.index()] >= 1)
                    .map(|colour| Action::SellTulip { colour })
                    .collect();
                list.push(Action::SkipSale {});
                list
            }
            Phase::Commit { .. } => Card::ALL
                .iter()
                .map(|&card| Action::CommitCard { card })
                .collect(),
            Phase::SellerCard { .. } => Card::SELLER
                .iter()
                .map(|&card| Action::PlaySellerCard { card })
                .collect(),
            Phase::Draw => std::iter::once(None)
                .chain((0..self.face_up.len() as u32).map(Some))
                .map(|face_up| Action::DrawBuyer { face_up })
                .collect(),
            Phase::Purchase => {
                let mut list: Vec<Action> = self
                    .live_colours()
                    .filter(|&colour| self.buy_error(colour).is_none())
                    .map(|colour| Action::BuyTulip { colour })
                    .collect();
                list.push(Action::SkipPurchase {});
                list
            }
            Phase::GameOver { .. } => Vec::new(),
        };
        candidates
            .into_iter()
            .filter(|action| self.check(seat, action).is_ok())
            .map(LegalAction::action)
            .collect()
    }
}
