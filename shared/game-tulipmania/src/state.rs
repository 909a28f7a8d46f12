//! The complete game state (spec §2). Every field is public so that tests and tools can
//! build arbitrary positions (see [`crate::scenario`]); clients only ever see a
//! [`crate::View`].

use crate::board::{Board, SpaceIdx, SpaceKind};
use crate::options::Options;
use crate::pieces::{Card, Colour, Counts, DiscardedBuyer, Florins};
use game_core::{Game, Seat, SeatSet};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The quiescent phases of a turn (spec §3.1). System states run inside `apply` and are never
/// stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// `SELL_CHOICE`: the current player sells a tulip (or keeps his only one).
    SellChoice,
    /// `COMMIT`: every other player places a card face down. `commits[p]` is `p`'s card
    /// (always `None` for the seller).
    Commit {
        /// The sealed cards, by seat.
        commits: Vec<Option<Card>>,
    },
    /// `SELLER_CARD`: everyone else effectively passed; the seller may play a proxy card.
    /// `revealed[p]` is `p`'s revealed card after replacements (public).
    SellerCard {
        /// The effective cards, by seat (`None` for the seller).
        revealed: Vec<Option<Card>>,
    },
    /// `DRAW`: the current player takes a buyer card.
    Draw,
    /// `PURCHASE`: the current player may buy one tulip from the stockpile.
    Purchase,
    /// `GAME_OVER`.
    GameOver {
        /// Why the game ended.
        reason: EndReason,
    },
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::EndReason))]
pub enum EndReason {
    /// `FINAL_BURST`: only one colour was left, and it burst at once.
    FinalBurst,
    /// `ALL_DECLINE`: a full round of idle turns; every tulip was liquidated.
    AllDecline,
    /// `TURN_CAP`: the `max_turns` option was reached; every tulip was liquidated.
    TurnCap,
}

impl EndReason {
    /// The reason as reported in `Outcome::reason`: `final_burst`, `all_decline`, `turn_cap`.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::FinalBurst => "final_burst",
            EndReason::AllDecline => "all_decline",
            EndReason::TurnCap => "turn_cap",
        }
    }
}

impl Phase {
    /// The phase's snake_case name.
    pub fn name(&self) -> &'static str {
        match self {
            Phase::SellChoice => "sell_choice",
            Phase::Commit { .. } => "commit",
            Phase::SellerCard { .. } => "seller_card",
            Phase::Draw => "draw",
            Phase::Purchase => "purchase",
            Phase::GameOver { .. } => "game_over",
        }
    }
}

/// A game of Tulipmania 1637: the full state (spec §2), including the hidden parts.
///
/// In JSON the resolved board is left out: it is rebuilt (and re-validated) from
/// `options.board` and `options.bottom_descent` when a state is loaded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "StoredGame")]
pub struct Tulipmania {
    /// Number of players, 3–5.
    pub n_seats: u8,
    /// The options the game was created with.
    pub options: Options,
    /// The resolved board (from `options.board` and `options.bottom_descent`).
    #[serde(skip_serializing)]
    pub board: Arc<Board>,
    /// The first player `f`.
    pub first_player: Seat,
    /// Starts at 1; +1 per completed turn.
    pub turn_number: u32,
    /// The current quiescent phase.
    pub phase: Phase,
    /// The holder of the current player card.
    pub current_player: Seat,
    /// The holder of the priority card.
    pub priority_holder: Seat,
    /// Cash by seat.
    pub cash: Vec<Florins>,
    /// The bank, a signed ledger.
    pub bank: Florins,
    /// Tulips by seat and colour.
    pub tulips: Vec<Counts>,
    /// The stockpile, by colour.
    pub stock: Counts,
    /// Each colour's price marker; `None` once burst (`REMOVED`) or when not in play.
    pub markers: [Option<SpaceIdx>; 5],
    /// The colours in the order they burst.
    pub burst_order: Vec<Colour>,
    /// Buyer cards by seat and colour (hidden from the other players).
    pub buyers: Vec<Counts>,
    /// The face-down buyer deck, top first (secret).
    pub deck: Vec<Colour>,
    /// The face-up buyer row.
    pub face_up: Vec<Colour>,
    /// Whether the face-down deck has run out.
    pub deck_exhausted: bool,
    /// The reserve deck, top first (secret).
    pub reserve: Vec<Colour>,
    /// Every buyer card removed from play, in order, with the reason.
    pub buyer_discard: Vec<DiscardedBuyer>,
    /// The colour of the tulip on the current player card during a sale.
    pub in_transit: Option<Colour>,
    /// The colour sold this turn, if any.
    pub sold_colour_this_turn: Option<Colour>,
    /// Whether the current player sold this turn.
    pub did_sell: bool,
    /// Whether the current player drew a buyer card this turn.
    pub did_draw: bool,
    /// Whether the current player bought a tulip this turn.
    pub did_buy: bool,
    /// Consecutive idle turns (spec §3.3, D13).
    pub idle_turns: u32,
    /// Accepted `draw_buyer` actions so far (invariant 8).
    pub draws: u32,
}

/// The JSON form of [`Tulipmania`]: everything but the resolved board.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredGame {
    // Number of players, 3–5.
    n_seats: u8,
    // The options the game was created with.
    options: Options,
    // The first player `f`.
    first_player: Seat,
    // Starts at 1; +1 per completed turn.
    turn_number: u32,
    // The current quiescent phase.
    phase: Phase,
    // The holder of the current player card.
    current_player: Seat,
    // The holder of the priority card.
    priority_holder: Seat,
    // Cash by seat.
    cash: Vec<Florins>,
    // The bank, a signed ledger (D16).
    bank: Florins,
    // Tulips by seat and colour.
    tulips: Vec<Counts>,
    // The stockpile, by colour.
    stock: Counts,
    // Each colour's price marker; `None` once burst (`REMOVED`) or when not in play.
    markers: [Option<SpaceIdx>; 5],
    // The colours in the order they burst.
    burst_order: Vec<Colour>,
    // Buyer cards by seat and colour (hidden from the other players).
    buyers: Vec<Counts>,
    // The face-down buyer deck, top first (secret).
    deck: Vec<Colour>,
    // The face-up buyer row.
    face_up: Vec<Colour>,
    // Whether the face-down deck has run out.
    deck_exhausted: bool,
    // The reserve deck, top first (secret).
    reserve: Vec<Colour>,
    // Every buyer card removed from play, in order, with the reason.
    buyer_discard: Vec<DiscardedBuyer>,
    // The colour of the tulip on the current player card during a sale.
    in_transit: Option<Colour>,
    // The colour sold this turn, if any.
    sold_colour_this_turn: Option<Colour>,
    // Whether the current player sold this turn.
    did_sell: bool,
    // Whether the current player drew a buyer card this turn.
    did_draw: bool,
    // Whether the current player bought a tulip this turn.
    did_buy: bool,
    // Consecutive idle turns (spec §3.3, D13).
    idle_turns: u32,
    // Accepted `draw_buyer` actions so far (invariant 8).
    draws: u32,
}

impl TryFrom<StoredGame> for Tulipmania {
    type Error = String;

    fn try_from(stored: StoredGame) -> Result<Self, String> {
        let board = Board::from_option(&stored.options.board, stored.options.bottom_descent)
            .map_err(|error| error.to_string())?;
        Ok(Tulipmania {
            board: Arc::new(board),
            n_seats: stored.n_seats,
            options: stored.options,
            first_player: stored.first_player,
            turn_number: stored.turn_number,
            phase: stored.phase,
            current_player: stored.current_player,
            priority_holder: stored.priority_holder,
            cash: stored.cash,
            bank: stored.bank,
            tulips: stored.tulips,
            stock: stored.stock,
            markers: stored.markers,
            burst_order: stored.burst_order,
            buyers: stored.buyers,
            deck: stored.deck,
            face_up: stored.face_up,
            deck_exhausted: stored.deck_exhausted,
            reserve: stored.reserve,
            buyer_discard: stored.buyer_discard,
            in_transit: stored.in_transit,
            sold_colour_this_turn: stored.sold_colour_this_turn,
            did_sell: stored.did_sell,
            did_draw: stored.did_draw,
            did_buy: stored.did_buy,
            idle_turns: stored.idle_turns,
            draws: stored.draws,
        })
    }
}

impl Tulipmania {
    /// The colours in play at this table.
    pub fn colours(&self) -> &'static [Colour] {
        Colour::in_play(self.n_seats)
    }

    /// Whether `colour` is in play and has not burst.
    pub fn is_live(&self, colour: Colour) -> bool {
        self.markers[colour.index()].is_some()
    }

    /// The live colours, in colour order.
    pub fn live_colours(&self) -> impl Iterator<Item = Colour> + '_ {
        self.colours()
            .iter()
            .copied()
            .filter(|&colour| self.is_live(colour))
    }

    /// The price of a live colour (its marker's value).
    pub fn price(&self, colour: Colour) -> Option<Florins> {
        self.markers[colour.index()].map(|space| self.board.value(space))
    }

    /// The id of a colour's marker space, or `None` once it has burst.
    pub fn marker_id(&self, colour: Colour) -> Option<&str> {
        self.markers[colour.index()].map(|space| self.board.space(space).id.as_str())
    }

    /// Sets a colour's marker to the space with id `id` (for building positions).
    ///
    /// # Panics
    /// If the board has no such space.
    pub fn set_marker(&mut self, colour: Colour, id: &str) {
        let space = self
            .board
            .find(id)
            .unwrap_or_else(|| panic!("no space {id} on this board"));
        self.markers[colour.index()] = Some(space);
    }

    /// Sets a seat's cash, moving the difference to or from the bank so the total stays
    /// ƒ100,000 (the scenario convention of spec §8).
    pub fn set_cash(&mut self, seat: Seat, cash: Florins) {
        self.bank += self.cash[seat.index()] - cash;
        self.cash[seat.index()] = cash;
    }

    /// Sets a seat's buyer hand from a list of colours.
    pub fn set_buyers(&mut self, seat: Seat, cards: &[Colour]) {
        let mut counts = [0u8; 5];
        for card in cards {
            counts[card.index()] += 1;
        }
        self.buyers[seat.index()] = counts;
    }

    /// The number of tulips a seat holds.
    pub fn tulip_count(&self, seat: Seat) -> u32 {
        crate::pieces::total(&self.tulips[seat.index()])
    }

    /// The number of buyer cards a seat holds.
    pub fn buyer_count(&self, seat: Seat) -> u32 {
        crate::pieces::total(&self.buyers[seat.index()])
    }

    /// The seats that may act now (spec §3.1): the same as [`Game::to_act`], for callers
    /// without the trait in scope.
    pub fn acting_seats(&self) -> SeatSet {
        Game::to_act(self)
    }

    /// The kind of the space a live colour's marker is on.
    pub fn marker_kind(&self, colour: Colour) -> Option<SpaceKind> {
        self.markers[colour.index()].map(|space| self.board.space(space).kind)
    }
}
