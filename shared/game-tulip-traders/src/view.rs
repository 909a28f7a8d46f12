//! Per-viewer views (§2.4): `View` and `view`.

use crate::cards::{Card, Cell};
use crate::options::Options;
use crate::state::{GameResult, Phase, TulipTraders};
use game_core::{Seat, Viewer};
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
pub struct View {
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

/// §2.4 view for `viewer`.
pub fn view(game: &TulipTraders, viewer: Viewer) -> View {
    let over = game.phase == Phase::GameOver;
    let me = viewer.seat();
    View {
        options: game.options.clone(),
        round: game.round,
        fp: game.fp,
        phase: game.phase.clone(),
        actor: game.actor(),
        rows: game.grid.rows,
        cols: game.grid.cols,
        grid: game
            .grid
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, slot)| {
                slot.map(|c| CellView {
                    cell: c.cell,
                    row: i / game.grid.cols,
                    col: i % game.grid.cols,
                    tokens: c.tokens,
                    crisis: c.crisis,
                })
            })
            .collect(),
        crisis_count: game.crisis_count(),
        market_deck_size: game.market_deck.len(),
        portfolio_deck_size: game.portfolio_deck.len(),
        sack_supply: game.sack_supply.clone(),
        bank_issued: game.bank_issued,
        collapse_flag: game.collapse_flag,
        offer: game.offer.as_ref().map(|o| OfferView {
            seller: o.seller,
            buyer: o.buyer,
            declared: o.declared,
            min: o.min,
            final_offer: o.final_offer,
            revealed: o.revealed,
            lot_size: o.lot.len(),
            lot: (o.revealed || me == Some(o.seller)).then(|| o.lot.clone()),
        }),
        players: game
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| PlayerView {
                purse: p.purse,
                option: p
                    .option
                    .map(|k| game.options.investment_options[k].name.clone()),
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
        elimination_order: game.elimination_order.clone(),
        result: game.result.clone(),
    }
}
