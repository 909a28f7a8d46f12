//! Commands (spec §4.0) and trade terms (§4.3).

use crate::ids::{ClaimId, Handle, OfferId, PromiseId, SessionId};
use crate::pieces::Space;
use game_core::Seat;
use serde::{Deserialize, Serialize};

/// The literal `"exit"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Exit))]
pub enum Exit {
    /// Leave the building from the ground floor.
    Exit,
}

/// Where a `move` goes: a space, or `"exit"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::MoveTarget))]
pub enum MoveTarget {
    /// A down-neighbour space.
    Space(Space),
    /// Leave the building.
    Exit(Exit),
}

/// One term of an offer, tagged by `kind`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Term))]
pub enum Term {
    /// T1: the named coins go from `giver` to `receiver`; `values`, if given, asserts that
    /// every coin has one of these values (checked when the giver posts or accepts).
    Coins {
        /// Who gives.
        giver: Seat,
        /// Who receives.
        receiver: Seat,
        /// The coins, by handle.
        handles: Vec<Handle>,
        /// Optional value assertion.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        values: Option<Vec<u8>>,
    },
    /// T2: `to` learns the values of `from`'s named coins.
    Reveal {
        /// Whose coins.
        from: Seat,
        /// Who learns.
        to: Seat,
        /// The coins, by handle.
        handles: Vec<Handle>,
    },
    /// T3: `to` learns every value `from` knows of `about`'s portfolio.
    ShareKnowledge {
        /// Who shares.
        from: Seat,
        /// Who learns.
        to: Seat,
        /// Whose portfolio.
        about: Seat,
    },
    /// T4: action points, from the turn player's current AP or as `from`'s debt; `to` gets
    /// a bonus on its next 1–5 roll.
    ActionPoints {
        /// Who gives.
        from: Seat,
        /// Who receives.
        to: Seat,
        /// How many (1..=`max_ap_per_term`).
        amount: u32,
    },
    /// T7: a free-text promise, recorded and settled only by a claim.
    Promise {
        /// Who promises.
        promisor: Seat,
        /// To whom.
        promisee: Seat,
        /// What.
        text: String,
    },
}

impl Term {
    /// The term's two players: the one who gives (coins, a reveal, knowledge, action points
    /// or a promise) and the one who receives.
    pub fn parties(&self) -> (Seat, Seat) {
        match self {
            Term::Coins {
                giver, receiver, ..
            } => (*giver, *receiver),
            Term::Reveal { from, to, .. }
            | Term::ShareKnowledge { from, to, .. }
            | Term::ActionPoints { from, to, .. } => (*from, *to),
            Term::Promise {
                promisor, promisee, ..
            } => (*promisor, *promisee),
        }
    }
}

/// A command. The issuing seat is the authenticated caller, never a field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Action))]
pub enum Action {
    /// Place the pawn on a free roof space (phase PLACE).
    PlacePawn {
        /// A roof space.
        space: Space,
    },
    /// Flip an unoccupied tile (phase OPPORTUNITY).
    FlipTile {
        /// Slot id.
        slot: u16,
    },
    /// Rotate the tile just turned face-up (phase ORIENT).
    OrientTile {
        /// 0, 90, 180 or 270 degrees clockwise.
        rotation: u16,
    },
    /// Move one space down, or exit from the ground floor (1 AP).
    Move {
        /// A space or `"exit"`.
        to: MoveTarget,
    },
    /// The forced sale at a window (1 AP).
    Sell {
        /// The coins sold.
        handles: Vec<Handle>,
    },
    /// Buy one coin from the bag (1 AP).
    Buy,
    /// Return coins to the bag and draw as many (1 AP, once per turn).
    MarketTrade {
        /// The coins returned.
        handles: Vec<Handle>,
    },
    /// Open a trading session with a new group (1 AP).
    OpenSession {
        /// The other participants.
        #[serde(rename = "with")]
        with_seats: Vec<Seat>,
        /// Abandon the session at once (spend the AP).
        #[serde(rename = "pass", default)]
        pass_at_once: bool,
    },
    /// Post an offer (which also accepts it).
    PostOffer {
        /// The open session.
        session: SessionId,
        /// The terms.
        terms: Vec<Term>,
        /// The offer this one counters.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        counters: Option<OfferId>,
    },
    /// Withdraw one's own live offer.
    WithdrawOffer {
        /// The offer.
        offer: OfferId,
    },
    /// Point one's acceptance at a live offer.
    AcceptOffer {
        /// The offer.
        offer: OfferId,
    },
    /// Clear one's acceptance pointer.
    RevokeAcceptance {
        /// The open session.
        session: SessionId,
    },
    /// End the session without agreement.
    LeaveSession {
        /// The open session.
        session: SessionId,
    },
    /// Claim that a promise to oneself was broken.
    FileClaim {
        /// The promise.
        promise: PromiseId,
    },
    /// Accept the penalty of a claim against oneself.
    ConcedeClaim {
        /// The claim.
        claim: ClaimId,
    },
    /// A juror's vote.
    VoteClaim {
        /// The claim.
        claim: ClaimId,
        /// Uphold (true) or dismiss (false).
        uphold: bool,
    },
    /// Give up a promise made to oneself.
    WaivePromise {
        /// The promise.
        promise: PromiseId,
    },
}
