//! What one viewer may see (spec §2.3): public items, plus the values of the coins in the
//! viewer's knowledge set. After the end everything is public.

use crate::coins::coin_info;
use crate::event::{CoinInfo, Standing};
use crate::options::Options;
use crate::pieces::{Piece, Space, Suit};
use crate::state::{BlackThursday, Claim, Phase, Position, Promise, Session, Status};
use game_core::{Seat, SeatSet, Viewer};
use serde::Serialize;

/// One slot as seen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::SlotView))]
pub struct SlotView {
    /// Slot id.
    pub id: u16,
    /// Top-left space.
    pub origin: Space,
    /// Face-up (windows) or face-down (offices).
    pub face_up: bool,
    /// The tile, when face-up (or at the end).
    pub tile: Option<Piece>,
    /// The rotation of a face-up tile.
    pub rotation: Option<u16>,
    /// The tile as last seen face-up, if it ever was (a tile never changes, so this is
    /// its identity).
    pub last_seen: Option<Piece>,
}

/// One player as seen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::PlayerView))]
pub struct PlayerView {
    /// Seat.
    pub seat: Seat,
    /// Pawn suit.
    pub pawn_suit: Suit,
    /// Status.
    pub status: Status,
    /// Pawn position.
    pub position: Position,
    /// AP bonus for the next 1–5 roll.
    pub ap_bonus: u32,
    /// AP owed.
    pub ap_debt: u32,
    /// The portfolio: handles and suits; values where the viewer knows them.
    pub coins: Vec<CoinInfo>,
}

/// The turn as seen (all public).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::TurnView))]
pub struct TurnView {
    /// Turn number.
    pub number: u32,
    /// The turn player.
    pub active: Seat,
    /// The phase.
    pub phase: Phase,
    /// The die (0 = null), once rolled.
    pub die: Option<u8>,
    /// AP left.
    pub ap_remaining: u32,
    /// Whether the pawn has moved.
    pub moved: bool,
    /// Whether the market trade was used.
    pub market_traded: bool,
    /// Groups used for sessions this turn.
    pub groups_used: Vec<SeatSet>,
}

/// What one viewer sees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::BlackThursdayView))]
pub struct View {
    /// The viewer's seat (null for a spectator).
    pub viewer: Option<Seat>,
    /// The options.
    pub options: Options,
    /// Accepted commands so far.
    pub version: u64,
    /// Whether the game is over.
    pub ended: bool,
    /// The building.
    pub slots: Vec<SlotView>,
    /// Coins in the bag.
    pub bag_count: usize,
    /// Coins in the bag per suit (canonical order).
    pub bag_by_suit: Vec<u8>,
    /// The bag's contents (only after the end).
    pub bag: Option<Vec<Piece>>,
    /// Out-of-play tiles (only after the end).
    pub out_of_play: Option<Vec<Piece>>,
    /// The players.
    pub players: Vec<PlayerView>,
    /// The turn.
    pub turn: TurnView,
    /// The open session, or the last one.
    pub session: Option<Session>,
    /// Every promise.
    pub promises: Vec<Promise>,
    /// Every claim.
    pub claims: Vec<Claim>,
    /// Seats that may act now.
    pub to_act: SeatSet,
    /// Final standings (only after the end).
    pub standings: Option<Vec<Standing>>,
}

/// Builds the view of `viewer`.
pub fn view(game: &BlackThursday, viewer: Viewer) -> View {
    let ended = game.phase == Phase::Ended;
    let me = viewer.seat();
    let slots = game
        .slots
        .iter()
        .enumerate()
        .map(|(id, slot)| SlotView {
            id: id as u16,
            origin: slot.origin,
            face_up: slot.face_up,
            tile: (slot.face_up || ended).then(|| Piece::from_index(slot.tile)),
            rotation: slot.rotation,
            last_seen: slot.seen.then(|| Piece::from_index(slot.tile)),
        })
        .collect();
    let players = game
        .players
        .iter()
        .enumerate()
        .map(|(seat, p)| PlayerView {
            seat: Seat(seat as u8),
            pawn_suit: p.pawn_suit,
            status: p.status,
            position: p.position,
            ap_bonus: p.ap_bonus,
            ap_debt: p.ap_debt,
            coins: p
                .coins
                .iter()
                .map(|h| coin_info(h, ended || me.is_some_and(|s| h.known_by.contains(s))))
                .collect(),
        })
        .collect();
    View {
        viewer: me,
        options: game.options.clone(),
        version: game.version,
        ended,
        slots,
        bag_count: game.bag.len(),
        bag_by_suit: game.bag_by_suit(),
        bag: ended.then(|| game.bag.iter().map(|&c| Piece::from_index(c)).collect()),
        out_of_play: ended.then(|| {
            game.out_of_play
                .iter()
                .map(|&c| Piece::from_index(c))
                .collect()
        }),
        players,
        turn: TurnView {
            number: game.turn.number,
            active: game.turn.active,
            phase: game.phase,
            die: game.turn.die,
            ap_remaining: game.turn.ap,
            moved: game.turn.moved,
            market_traded: game.turn.market_traded,
            groups_used: game.turn.groups_used.clone(),
        },
        session: game.session.clone(),
        promises: game.promises.clone(),
        claims: game.claims.clone(),
        to_act: game.to_act(),
        standings: ended.then(|| game.standings()),
    }
}
