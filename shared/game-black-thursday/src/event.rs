//! Log events. Coin values appear only in events addressed to seats that may know them
//! (a private event plus a redacted twin for everyone else, or a private `values_learned`).

use crate::ids::{AgreementId, ClaimId, Handle, OfferId, PromiseId, SessionId};
use crate::pieces::{Piece, Space, Suit};
use crate::state::{Claim, Offer, SessionStatus};
use game_core::{Logged, Seat, SeatSet};
use serde::{Deserialize, Serialize};

/// A coin as an event shows it: the value only where the audience may know it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::CoinInfo))]
pub struct CoinInfo {
    /// The handle.
    pub handle: Handle,
    /// The suit (public).
    pub suit: Suit,
    /// The value, if the audience may know it.
    pub value: Option<u8>,
}

/// A coin changing hands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Transfer))]
pub struct Transfer {
    /// Who gave.
    pub from: Seat,
    /// Who received.
    pub to: Seat,
    /// The coin.
    pub coin: CoinInfo,
}

/// One seat's roll in the opening roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::OpeningRoll))]
pub struct OpeningRoll {
    /// The seat.
    pub seat: Seat,
    /// Every result it rolled in this round (nulls, then the first non-null).
    pub rolls: Vec<u8>,
}

/// A player's final standing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Standing))]
pub struct Standing {
    /// The seat.
    pub seat: Seat,
    /// Total shares held (nulls count 0): lower is better.
    pub common: u32,
    /// Certificates held: the tie-break, lower is better.
    pub certs: u32,
    /// Competition rank, 1 = best.
    pub rank: u8,
}

/// Why a coin was drawn from the bag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::DrawReason))]
pub enum DrawReason {
    /// The setup deal.
    Deal,
    /// A `buy`.
    Buy,
    /// A `market_trade`.
    MarketTrade,
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Event))]
pub enum Event {
    /// The opening roll, round by round; `first` starts.
    OpeningRolled {
        /// Each round's rolls.
        rounds: Vec<Vec<OpeningRoll>>,
        /// The first player.
        first: Seat,
    },
    /// Coins drawn from the bag (values only in the drawer's copy).
    CoinsDrawn {
        /// Who drew.
        seat: Seat,
        /// Why.
        reason: DrawReason,
        /// The coins.
        coins: Vec<CoinInfo>,
    },
    /// Coins put into the bag (values only in the seller's copy).
    CoinsReturned {
        /// Who returned them.
        seat: Seat,
        /// `true` for a window sale, `false` for a market trade.
        sale: bool,
        /// The coins (handles now retired).
        coins: Vec<CoinInfo>,
    },
    /// A turn began.
    TurnStarted {
        /// Turn number.
        turn: u32,
        /// The turn player.
        seat: Seat,
    },
    /// A pawn was placed on the roof.
    PawnPlaced {
        /// Whose.
        seat: Seat,
        /// Where.
        space: Space,
    },
    /// The turn die was rolled.
    DieRolled {
        /// Whose turn.
        seat: Seat,
        /// 0 = null (opportunity), else AP.
        die: u8,
        /// AP available after bonus and debt (0 for a null or a void roll).
        ap: u32,
        /// Bonus used.
        bonus_used: u32,
        /// Debt paid.
        debt_paid: u32,
    },
    /// A tile was flipped.
    TileFlipped {
        /// Slot id.
        slot: u16,
        /// Its new face.
        face_up: bool,
        /// Its identity (public once it has been face-up).
        tile: Piece,
    },
    /// A face-up tile was oriented.
    TileOriented {
        /// Slot id.
        slot: u16,
        /// Rotation.
        rotation: u16,
    },
    /// A pawn moved down, or exited the building (`to` is null).
    PawnMoved {
        /// Whose.
        seat: Seat,
        /// Where it went; null when it exited the building.
        to: Option<Space>,
    },
    /// A player missed a window and jumped; the penalty coins it received.
    Jumped {
        /// The jumper.
        seat: Seat,
        /// Coins per giver: 1 (window) or 2 (great window).
        penalty: u8,
        /// The coins received (values only in the jumper's copy).
        received: Vec<Transfer>,
    },
    /// The turn ended.
    TurnEnded {
        /// Whose.
        seat: Seat,
        /// Unspent AP forfeited.
        ap_forfeited: u32,
    },
    /// A session was opened (and at once abandoned if `passed`).
    SessionOpened {
        /// Its id.
        session: SessionId,
        /// Every participant.
        participants: SeatSet,
        /// Whether it was opened with `pass`.
        passed: bool,
    },
    /// An offer was posted (and accepted by its author).
    OfferPosted {
        /// The offer.
        offer: Offer,
    },
    /// An offer was withdrawn.
    OfferWithdrawn {
        /// Which.
        offer: OfferId,
    },
    /// Live offers became `FAILED` after a penalty moved their coins.
    OffersFailed {
        /// Which.
        offers: Vec<OfferId>,
    },
    /// A participant pointed its acceptance at an offer.
    OfferAccepted {
        /// Who.
        seat: Seat,
        /// Which offer.
        offer: OfferId,
    },
    /// A participant cleared its acceptance.
    AcceptanceRevoked {
        /// Who.
        seat: Seat,
    },
    /// An offer was executed.
    AgreementExecuted {
        /// The agreement id.
        agreement: AgreementId,
        /// The offer.
        offer: OfferId,
        /// Coins moved (no values).
        transfers: Vec<Transfer>,
        /// Promises recorded.
        promises: Vec<PromiseId>,
    },
    /// A session closed.
    SessionClosed {
        /// Which.
        session: SessionId,
        /// `AGREED` or `ABANDONED`.
        status: SessionStatus,
        /// Who left (for `ABANDONED`).
        left_by: Option<Seat>,
    },
    /// Private: values `seat` learned (by transfer, reveal, shared knowledge or penalty).
    ValuesLearned {
        /// Who learned.
        seat: Seat,
        /// The coins with their values.
        coins: Vec<CoinInfo>,
    },
    /// A claim was filed.
    ClaimFiled {
        /// The claim.
        claim: Claim,
    },
    /// A juror voted.
    ClaimVoted {
        /// Which claim.
        claim: ClaimId,
        /// Who.
        seat: Seat,
        /// The vote.
        uphold: bool,
    },
    /// The accused conceded.
    ClaimConceded {
        /// Which claim.
        claim: ClaimId,
    },
    /// A claim was decided.
    ClaimDecided {
        /// Which claim.
        claim: ClaimId,
        /// Upheld (penalty) or dismissed.
        upheld: bool,
        /// Penalty coins moved from the claimant to the accused (no values).
        moved: Vec<Transfer>,
    },
    /// A promise was waived.
    PromiseWaived {
        /// Which.
        promise: PromiseId,
    },
    /// The game ended; everything is revealed.
    GameEnded {
        /// Final standings by seat.
        standings: Vec<Standing>,
        /// Every portfolio with values, by seat.
        portfolios: Vec<Vec<CoinInfo>>,
        /// The bag's contents.
        bag: Vec<Piece>,
    },
}

/// The events of one step, each with its visibility.
pub type Events = Vec<Logged<Event>>;
