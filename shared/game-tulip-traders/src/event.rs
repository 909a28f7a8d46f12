//! Log events (§2.5). A private event and its redacted twin share a variant: the twin has
//! `cards: None` and only counts.

use crate::cards::{Card, Cell};
use crate::state::EndReason;
use game_core::{Logged, Seat, SeatSet};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Why money moved between two seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::PaymentKind))]
#[serde(rename_all = "snake_case")]
pub enum PaymentKind {
    /// A buyer paid the declared price.
    Price,
    /// A false accuser paid an honest seller.
    HonestAccusation,
    /// A lying seller paid the accuser `declared − actual`.
    LieFine,
    /// A bankrupt seat's whole purse went to its creditor.
    BankruptCash,
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::Event))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A round began and the Portfolio deck was reshuffled.
    RoundStarted {
        /// The round.
        round: u8,
        /// Its first player.
        fp: Seat,
    },
    /// A Market card was placed on the grid.
    MarketCardPlaced {
        /// The card.
        cell: Cell,
        /// Its row.
        row: usize,
        /// Its column.
        col: usize,
    },
    /// A boom.
    Boom {
        /// The newly placed card.
        placed: Cell,
        /// The matching neighbour.
        neighbour: Cell,
        /// Tokens the new card received.
        placed_gain: u32,
        /// Tokens the neighbour received (0 if it is in crisis).
        neighbour_gain: u32,
    },
    /// A seat chose an investment option (A1).
    InvestmentDeclared {
        /// Who.
        seat: Seat,
        /// The option name.
        option: String,
        /// The earmark.
        earmark: u32,
        /// The new portfolio limit.
        limit: u32,
    },
    /// Cards went face down (A2 discard, A11 return). `cards` only for the owner.
    CardsPutAway {
        /// Who.
        seat: Seat,
        /// How many.
        count: usize,
        /// Which (owner only).
        cards: Option<Vec<Card>>,
    },
    /// A crisis was moved (A4).
    CrisisMoved {
        /// Who paid.
        seat: Seat,
        /// From this cell.
        from: Cell,
        /// To this cell.
        to: Cell,
        /// The fee paid to the bank.
        fee: u32,
        /// Tokens the target lost to the bank.
        tokens_removed: u32,
    },
    /// A seat passed its manipulation turn (A5).
    ManipulationPassed {
        /// Who.
        seat: Seat,
    },
    /// An earmark became tokens (A6).
    InvestmentPlaced {
        /// Who.
        seat: Seat,
        /// Tokens per cell.
        alloc: BTreeMap<Cell, u32>,
    },
    /// A seat drew Portfolio cards. `cards` only for the drawer.
    CardsDrawn {
        /// Who.
        seat: Seat,
        /// How many from the deck.
        count: usize,
        /// Which (drawer only).
        cards: Option<Vec<Card>>,
        /// SACKs added from the supply because the deck ran short (their ids are public).
        sacks: Vec<Card>,
    },
    /// A seller became pending (header of the next offer).
    SellerPending {
        /// The seller.
        seller: Seat,
        /// The minimum declaration.
        min: u32,
        /// FINAL mode.
        final_offer: bool,
    },
    /// A lot was offered (A7). `cards` only for the seller.
    LotOffered {
        /// The seller.
        seller: Seat,
        /// The buyer.
        buyer: Seat,
        /// The declared value.
        declared: u32,
        /// FINAL offer.
        final_offer: bool,
        /// The lot (seller only).
        cards: Option<Vec<Card>>,
    },
    /// The buyer bought the lot (A8). `cards` only for seller and buyer.
    LotBought {
        /// The seller.
        seller: Seat,
        /// The buyer.
        buyer: Seat,
        /// The price.
        price: u32,
        /// The lot (seller and buyer only).
        cards: Option<Vec<Card>>,
    },
    /// The buyer accused; the lot is revealed (A9).
    Accused {
        /// The seller.
        seller: Seat,
        /// The accuser.
        buyer: Seat,
        /// The revealed lot.
        lot: Vec<Card>,
        /// The declared value.
        declared: u32,
        /// The lot's actual value.
        actual: u32,
        /// Whether the seller was honest (`actual ≥ declared`).
        honest: bool,
    },
    /// A debtor must liquidate (entering P5_LIQUIDATE).
    LiquidationRequired {
        /// Who owes.
        debtor: Seat,
        /// Who is owed.
        creditor: Seat,
        /// How much.
        amount: u32,
    },
    /// A card was liquidated to the bank (public).
    CardLiquidated {
        /// Who.
        seat: Seat,
        /// The card.
        card: Card,
        /// What the bank paid.
        value: u32,
        /// The SACK received, if any.
        sack: Option<Card>,
    },
    /// Money moved between seats.
    Payment {
        /// Payer.
        from: Seat,
        /// Payee.
        to: Seat,
        /// Amount.
        amount: u32,
        /// Why.
        kind: PaymentKind,
    },
    /// A cell went into crisis through a disruption (step 1 or a ripple).
    CrisisPlaced {
        /// The cell.
        cell: Cell,
        /// Tokens sent to the bank.
        tokens_removed: u32,
    },
    /// A ripple took tokens from a neighbour without a crisis.
    Ripple {
        /// The cell.
        cell: Cell,
        /// Tokens sent to the bank.
        tokens_removed: u32,
    },
    /// A lie exposed a lot without tulips: the market collapses at Phase 6.
    CollapseTriggered,
    /// A revealed lot went to the deck bottom (SACKs to the supply).
    LotDisposed {
        /// The cards, in lot order.
        cards: Vec<Card>,
    },
    /// A seat went bankrupt.
    Bankrupt {
        /// Who.
        seat: Seat,
        /// Who received its cash.
        creditor: Seat,
        /// Its non-tulip cards put away (public).
        discarded: Vec<Card>,
    },
    /// Phase 5 ended.
    ChainEnded,
    /// A seat declined to reveal (A13).
    RevealDeclined {
        /// Who.
        seat: Seat,
    },
    /// A seat revealed a complete portfolio (A12).
    PortfolioRevealed {
        /// Who.
        seat: Seat,
    },
    /// The game ended; every hand is public.
    GameOver {
        /// Why.
        reason: EndReason,
        /// Every seat, best first.
        ranking: Vec<Seat>,
        /// Scores by seat, if computed.
        scores: Option<Vec<Option<i64>>>,
        /// Every hand, by seat.
        hands: Vec<Vec<Card>>,
    },
}

/// Events only `seat` sees, plus the redacted twin for everyone else.
pub fn private_pair(events: &mut Vec<Logged<Event>>, seats: SeatSet, full: Event, redacted: Event) {
    events.push(Logged {
        visibility: game_core::Visibility::Seats(seats),
        event: full,
    });
    events.push(Logged {
        visibility: game_core::Visibility::AllExcept(seats),
        event: redacted,
    });
}
