//! The complete game state (spec §2). Every field is `pub` so tests can build scenario
//! states directly; the rules keep the invariants of spec §9, so a hand-built state must too.

use crate::action::Term;
use crate::ids::{ClaimId, Handle, OfferId, PromiseId, SessionId};
use crate::options::Options;
use crate::pieces::{suit_of, Space, Suit};
use game_core::{Seat, SeatSet};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::{Arc, Mutex};

/// One slot of the building: a tile covering a 2×2 block of spaces (spec §1.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    /// The top-left space.
    pub origin: Space,
    /// The tile's canonical index (secret while face-down, unless `last_seen`).
    pub tile: u8,
    /// Whether the tile is face-up (windows) or face-down (offices).
    pub face_up: bool,
    /// The rotation of a face-up tile: 0, 90, 180 or 270; `None` while face-down or before
    /// it is oriented.
    pub rotation: Option<u16>,
    /// Whether the tile has ever been face-up (its identity, then, is public).
    pub seen: bool,
}

/// Where a player's pawn is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Position))]
pub enum Position {
    /// In the building but not yet placed (waiting for a free roof space).
    Unplaced,
    /// On this space.
    At(Space),
    /// Off the board (exited or jumped).
    Gone,
}

/// A player's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Status))]
pub enum Status {
    /// Still in the building (and in the market).
    InBuilding,
    /// Left by the ground floor.
    Exited,
    /// Jumped after missing a window.
    Jumped,
}

/// A coin held by a player: a stock certificate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Held {
    /// Its live handle.
    pub handle: Handle,
    /// The coin's canonical index (suit public, value known to `known_by`).
    pub coin: u8,
    /// The seats whose knowledge set holds this handle (always includes the holder).
    pub known_by: SeatSet,
}

impl Held {
    /// The coin's suit (public).
    pub fn suit(&self) -> Suit {
        suit_of(self.coin)
    }
}

/// One player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The pawn's suit (cosmetic).
    pub pawn_suit: Suit,
    /// `in_building`, `exited` or `jumped`.
    pub status: Status,
    /// The pawn's position.
    pub position: Position,
    /// AP added to the next 1–5 roll.
    pub ap_bonus: u32,
    /// AP owed, deducted from later 1–5 rolls.
    pub ap_debt: u32,
    /// The portfolio, by ascending handle.
    pub coins: Vec<Held>,
}

/// The turn phase. Only phases that wait for a player are ever shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
#[serde(tag = "phase", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Phase))]
pub enum Phase {
    /// The turn player places its pawn on the roof.
    Place,
    /// Opportunity roll: the turn player flips an unoccupied tile.
    Opportunity,
    /// The turn player orients the tile it just turned face-up.
    Orient {
        /// The slot just turned face-up.
        slot: u16,
    },
    /// The turn player spends action points.
    Actions,
    /// Forced sale after a move onto a window.
    Sale {
        /// The window's suit.
        suit: Suit,
        /// Whether it is a great window (sell 1 or more) rather than an ordinary one (1).
        great: bool,
    },
    /// A trading session is open.
    Session,
    /// The game is over.
    Ended,
}

/// The turn variables (spec §3.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Turn number, from 1.
    pub number: u32,
    /// The turn player.
    pub active: Seat,
    /// The die: `None` before the roll, `Some(0)` for null (opportunity), else 1..=5.
    pub die: Option<u8>,
    /// AP left this turn.
    pub ap: u32,
    /// Whether the pawn has moved (or exited) this turn.
    pub moved: bool,
    /// Whether the market trade of this turn was used.
    pub market_traded: bool,
    /// Groups (sets of other participants) already used for sessions this turn.
    pub groups_used: Vec<SeatSet>,
}

/// Session status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::SessionStatus))]
pub enum SessionStatus {
    /// Participants may trade.
    Open,
    /// An offer was executed.
    Agreed,
    /// A participant left.
    Abandoned,
}

/// Offer status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::OfferStatus))]
pub enum OfferStatus {
    /// Can be accepted.
    Live,
    /// Withdrawn by its author.
    Withdrawn,
    /// Made invalid by a breach penalty.
    Failed,
    /// Executed: the agreement of its session.
    Executed,
    /// Its session ended without it.
    Closed,
}

/// An offer: public and immutable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Offer))]
pub struct Offer {
    /// Its id.
    pub id: OfferId,
    /// Who posted it.
    pub author: Seat,
    /// Its terms.
    pub terms: Vec<Term>,
    /// The offer it counters, if any.
    pub counters: Option<OfferId>,
    /// Its status.
    pub status: OfferStatus,
}

/// A trading session. The state keeps the open one, or the last one of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Session))]
pub struct Session {
    /// Its id.
    pub id: SessionId,
    /// The turn player who opened it.
    pub initiator: Seat,
    /// Every participant, the initiator included.
    pub participants: SeatSet,
    /// Its status.
    pub status: SessionStatus,
    /// Every offer posted in it.
    pub offers: Vec<Offer>,
    /// Each seat's acceptance pointer (by seat; always null for non-participants).
    pub pointers: Vec<Option<OfferId>>,
}

impl Session {
    /// The offer with this id, if it belongs to this session.
    pub fn offer(&self, id: OfferId) -> Option<&Offer> {
        self.offers.iter().find(|offer| offer.id == id)
    }

    /// The participants whose answer the newest live offer awaits (those whose pointer does
    /// not name it), or `None` while no offer is live. Beurs waits on them before the
    /// initiator (docs/rules/black-thursday.md, "Who the game waits on in a session").
    pub fn awaited(&self) -> Option<SeatSet> {
        let newest = self
            .offers
            .iter()
            .rev()
            .find(|offer| offer.status == OfferStatus::Live)?;
        let mut seats = SeatSet::EMPTY;
        for seat in self.participants.iter() {
            if self.pointers.get(seat.index()).copied().flatten() != Some(newest.id) {
                seats.insert(seat);
            }
        }
        Some(seats)
    }
}

/// Promise status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::PromiseStatus))]
pub enum PromiseStatus {
    /// Recorded; the promisee may claim or waive it.
    Open,
    /// A claim is being voted on.
    Claimed,
    /// Waived by the promisee.
    Waived,
    /// The claim was upheld.
    Breached,
    /// The claim was dismissed.
    Cleared,
    /// The game ended first.
    Lapsed,
}

/// A free-text promise made in an agreement (T7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Promise))]
pub struct Promise {
    /// Its id.
    pub id: PromiseId,
    /// Who promised.
    pub promisor: Seat,
    /// To whom.
    pub promisee: Seat,
    /// What (free text, not enforced).
    pub text: String,
    /// Its status.
    pub status: PromiseStatus,
}

/// Claim status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::ClaimStatus))]
pub enum ClaimStatus {
    /// The jury may vote; the accused may concede.
    Voting,
    /// The penalty was applied.
    Upheld,
    /// Nothing happened.
    Dismissed,
    /// The game ended first.
    Lapsed,
}

/// A claim that a promise was broken.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Claim))]
pub struct Claim {
    /// Its id.
    pub id: ClaimId,
    /// The promise claimed to be broken.
    pub promise: PromiseId,
    /// The promisee.
    pub claimant: Seat,
    /// The promisor.
    pub accused: Seat,
    /// Every other seat.
    pub jury: SeatSet,
    /// Jurors who voted to uphold.
    pub uphold: SeatSet,
    /// Jurors who voted to dismiss.
    pub dismiss: SeatSet,
    /// Its status.
    pub status: ClaimStatus,
}

/// Game-wide id counters: each holds the next number to issue (spec §0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    /// Next coin handle.
    pub handle: u32,
    /// Next session.
    pub session: u32,
    /// Next offer.
    pub offer: u32,
    /// Next promise.
    pub promise: u32,
    /// Next claim.
    pub claim: u32,
    /// Next agreement.
    pub agreement: u32,
}

impl Default for Counters {
    fn default() -> Self {
        Counters {
            handle: 1,
            session: 1,
            offer: 1,
            promise: 1,
            claim: 1,
            agreement: 1,
        }
    }
}

/// The complete state of a game of Black Thursday: this type implements `game_core::Game`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlackThursday {
    /// The options the game was created with.
    pub options: Options,
    /// Number of seats (3 or 4).
    pub n_seats: u8,
    /// Accepted commands so far.
    pub version: u64,
    /// The building, by slot id.
    pub slots: Vec<Slot>,
    /// Tiles out of play (canonical indices, sorted).
    pub out_of_play: Vec<u8>,
    /// The bag: canonical coin indices, sorted.
    pub bag: Vec<u8>,
    /// The players, by seat.
    pub players: Vec<Player>,
    /// Id counters.
    pub counters: Counters,
    /// The current turn.
    pub turn: Turn,
    /// The current phase.
    pub phase: Phase,
    /// The open session, or the last one that closed (`None` before the first).
    pub session: Option<Session>,
    /// Every promise of the game.
    pub promises: Vec<Promise>,
    /// Every claim of the game.
    pub claims: Vec<Claim>,
    /// The last `post_offer` schema listed from this state or the state it was applied
    /// from (not part of the game: never serialized, never compared).
    #[serde(skip)]
    pub(crate) offer_schema: OfferSchemaCache,
}

impl BlackThursday {
    /// The turn player.
    pub fn active(&self) -> Seat {
        self.turn.active
    }

    /// Where coin `handle` is held: `(seat index, position in the portfolio)`.
    pub fn holder(&self, handle: Handle) -> Option<(usize, usize)> {
        self.players.iter().enumerate().find_map(|(seat, player)| {
            player
                .coins
                .iter()
                .position(|held| held.handle == handle)
                .map(|pos| (seat, pos))
        })
    }

    /// The open session, if one is open.
    pub fn open_session(&self) -> Option<&Session> {
        self.session
            .as_ref()
            .filter(|s| s.status == SessionStatus::Open)
    }
}

/// The last `post_offer` schema a state listed, with the inputs it was built from. A state
/// keeps it across `apply` (a clone carries it too), so a session's listings build the
/// schema once per change of its inputs rather than once per listing; the key is checked on
/// every use, so a stale entry is never served.
#[derive(Default)]
pub struct OfferSchemaCache(Mutex<Option<(Vec<u32>, Arc<Value>)>>);

impl OfferSchemaCache {
    pub(crate) fn entry(&self) -> std::sync::MutexGuard<'_, Option<(Vec<u32>, Arc<Value>)>> {
        // The entry is a cache: one left behind by a panicking thread is still valid.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Clone for OfferSchemaCache {
    fn clone(&self) -> Self {
        OfferSchemaCache(Mutex::new(self.entry().clone()))
    }
}

/// Every cache equals every other: it is not part of the game.
impl PartialEq for OfferSchemaCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for OfferSchemaCache {}

impl std::fmt::Debug for OfferSchemaCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OfferSchemaCache")
    }
}
