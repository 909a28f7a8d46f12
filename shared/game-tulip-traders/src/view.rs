//! Per-viewer views (§2.4) and the re-deal used by the no-leak property.

use crate::cards::{Card, Cell};
use crate::options::Options;
use crate::state::{GameResult, Phase, TulipTraders};
use game_core::{GameRng, Seat, Viewer};
use serde::Serialize;

/// One grid cell as shown to everyone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::CellView))]
pub struct CellView {
    /// The Market card.
    pub cell: Cell,
    /// Row (0 = top).
    pub row: usize,
    /// Column (0 = left).
    pub col: usize,
    /// Tokens on it.
    pub tokens: u32,
    /// In crisis.
    pub crisis: bool,
}

/// The lot in flight as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::OfferView))]
pub struct OfferView {
    /// The seller.
    pub seller: Seat,
    /// The buyer.
    pub buyer: Seat,
    /// The declared value.
    pub declared: u32,
    /// The minimum that applied.
    pub min: u32,
    /// A FINAL offer.
    pub final_offer: bool,
    /// Revealed by an accusation.
    pub revealed: bool,
    /// Number of cards (always 3).
    pub lot_size: usize,
    /// The cards: only for the seller, or for everyone once revealed.
    pub lot: Option<Vec<Card>>,
}

/// One seat as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::PlayerView))]
pub struct PlayerView {
    /// Money (public).
    pub purse: u32,
    /// The investment option chosen this round.
    pub option: Option<String>,
    /// The earmark.
    pub earmark: u32,
    /// The portfolio limit this round.
    pub limit: u32,
    /// Number of cards in hand.
    pub hand_size: usize,
    /// The cards: only for their owner, or for everyone once the game is over.
    pub hand: Option<Vec<Card>>,
    /// Sold this round.
    pub sold: bool,
    /// Responded as buyer this round.
    pub bought: bool,
    /// Took the Phase 3 turn.
    pub manipulated: bool,
    /// Answered the reveal prompt.
    pub reveal_decided: bool,
    /// Out of the game.
    pub bankrupt: bool,
}

/// Everything one viewer may see.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::View))]
pub struct TulipView {
    /// The options.
    pub options: Options,
    /// The round.
    pub round: u8,
    /// The first player.
    pub fp: Seat,
    /// The machine state.
    pub phase: Phase,
    /// The seat expected to act.
    pub actor: Option<Seat>,
    /// Grid rows.
    pub rows: usize,
    /// Grid columns.
    pub cols: usize,
    /// The grid cells, row-major.
    pub grid: Vec<CellView>,
    /// Crisis count.
    pub crisis_count: usize,
    /// Market cards left.
    pub market_deck_size: usize,
    /// Portfolio cards left.
    pub portfolio_deck_size: usize,
    /// SACKs not in play.
    pub sack_supply: Vec<Card>,
    /// Net money issued by the bank.
    pub bank_issued: i64,
    /// A no-tulip lie was exposed.
    pub collapse_flag: bool,
    /// The lot in flight.
    pub offer: Option<OfferView>,
    /// Every seat.
    pub players: Vec<PlayerView>,
    /// Bankrupt seats, in order.
    pub elimination_order: Vec<Seat>,
    /// The result, once over.
    pub result: Option<GameResult>,
}

impl TulipTraders {
    /// §2.4 view for `viewer`.
    pub fn view_for(&self, viewer: Viewer) -> TulipView {
        let over = self.phase == Phase::GameOver;
        let me = viewer.seat();
        TulipView {
            options: self.options.clone(),
            round: self.round,
            fp: self.fp,
            phase: self.phase.clone(),
            actor: self.actor(),
            rows: self.grid.rows,
            cols: self.grid.cols,
            grid: self
                .grid
                .slots
                .iter()
                .enumerate()
                .filter_map(|(i, slot)| {
                    slot.map(|c| CellView {
                        cell: c.cell,
                        row: i / self.grid.cols,
                        col: i % self.grid.cols,
                        tokens: c.tokens,
                        crisis: c.crisis,
                    })
                })
                .collect(),
            crisis_count: self.crisis_count(),
            market_deck_size: self.market_deck.len(),
            portfolio_deck_size: self.portfolio_deck.len(),
            sack_supply: self.sack_supply.clone(),
            bank_issued: self.bank_issued,
            collapse_flag: self.collapse_flag,
            offer: self.offer.as_ref().map(|o| OfferView {
                seller: o.seller,
                buyer: o.buyer,
                declared: o.declared,
                min: o.min,
                final_offer: o.final_offer,
                revealed: o.revealed,
                lot_size: o.lot.len(),
                lot: (o.revealed || me == Some(o.seller)).then(|| o.lot.clone()),
            }),
            players: self
                .players
                .iter()
                .enumerate()
                .map(|(i, p)| PlayerView {
                    purse: p.purse,
                    option: p
                        .option
                        .map(|k| self.options.investment_options[k].name.clone()),
                    earmark: p.earmark,
                    limit: p.limit,
                    hand_size: p.hand.len(),
                    hand: (over || me == Some(Seat(i as u8))).then(|| p.hand.clone()),
                    sold: p.sold,
                    bought: p.bought,
                    manipulated: p.manipulated,
                    reveal_decided: p.reveal_decided,
                    bankrupt: p.bankrupt,
                })
                .collect(),
            elimination_order: self.elimination_order.clone(),
            result: self.result.clone(),
        }
    }

    /// Re-deals everything `viewer` cannot see among the places it cannot see: the Portfolio
    /// deck, other seats' hands (while the game runs) and a sealed lot it did not offer; the
    /// Market deck is reshuffled.
    pub fn redeal_for(&self, viewer: Viewer, rng: &mut GameRng) -> TulipTraders {
        let mut twin = self.clone();
        let over = self.phase == Phase::GameOver;
        let me = viewer.seat();
        let mut pool: Vec<Card> = twin.portfolio_deck.clone();
        let hidden_hands: Vec<usize> = (0..self.players.len())
            .filter(|&i| !over && me != Some(Seat(i as u8)))
            .collect();
        for &i in &hidden_hands {
            pool.extend(twin.players[i].hand.iter().copied());
        }
        let lot_hidden = self
            .offer
            .as_ref()
            .is_some_and(|o| !o.revealed && me != Some(o.seller));
        if lot_hidden {
            pool.extend(
                twin.offer
                    .as_ref()
                    .map(|o| o.lot.clone())
                    .unwrap_or_default(),
            );
        }
        // Pools are sorted first, so the re-deal depends only on what the viewer sees
        // (game_core::Redeal).
        pool.sort_unstable();
        rng.shuffle(&mut pool);
        let mut rest = pool.into_iter();
        let size = twin.portfolio_deck.len();
        twin.portfolio_deck = rest.by_ref().take(size).collect();
        for &i in &hidden_hands {
            let size = twin.players[i].hand.len();
            let mut hand: Vec<Card> = rest.by_ref().take(size).collect();
            hand.sort();
            twin.players[i].hand = hand;
        }
        if lot_hidden {
            if let Some(offer) = twin.offer.as_mut() {
                offer.lot = rest.by_ref().take(offer.lot.len()).collect();
            }
        }
        twin.market_deck.sort_unstable();
        rng.shuffle(&mut twin.market_deck);
        twin
    }
}
