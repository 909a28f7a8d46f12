//! The game state (§2): the type implementing `Game` is the whole state. Every field is `pub`
//! so tests can build any position (§8's Givens are injected fixtures); see [`crate::scenario`].

use crate::cards::{Card, Cell};
use crate::options::{Options, RoundRow};
use game_core::Seat;
use serde::{Deserialize, Serialize};

/// One grid cell (§2.1): a Market card with its tokens and crisis marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::GridCell))]
pub struct GridCell {
    /// The Market card (also the cell's id).
    pub cell: Cell,
    /// Guilder tokens on the card.
    pub tokens: u32,
    /// Whether the card holds a Crisis token.
    pub crisis: bool,
}

/// The market grid, row-major. Between actions it is a full rectangle; `None` slots exist only
/// while a line is being filled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grid {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// `rows * cols` slots, row-major.
    pub slots: Vec<Option<GridCell>>,
}

/// A seller's lot in flight (§2.1 `offer`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    /// The seller.
    pub seller: Seat,
    /// The chosen buyer.
    pub buyer: Seat,
    /// The declared value.
    pub declared: u32,
    /// The minimum that applied.
    pub min: u32,
    /// A FINAL offer (to fp).
    pub final_offer: bool,
    /// Revealed by an accusation (then `lot` is public).
    pub revealed: bool,
    /// The three cards, in the order offered.
    pub lot: Vec<Card>,
}

/// What runs after a debt is settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::Continuation))]
#[serde(rename_all = "snake_case")]
pub enum Continuation {
    /// After an honest seller was paid by its accuser.
    AfterHonest,
    /// After a lying seller paid its fine.
    AfterLie,
}

/// A debt awaiting liquidation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::Debt))]
pub struct Debt {
    /// Who owes.
    pub debtor: Seat,
    /// Who is owed.
    pub creditor: Seat,
    /// How much.
    pub amount: u32,
    /// What happens once it is paid.
    pub continuation: Continuation,
}

/// The phase of the game. Phases whose actor is "the next seat in ord that ..." carry no
/// seat: the actor is derived from the public per-player flags.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::Phase))]
#[derive(strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// P1_DECLARE: seats in ord choose an investment option.
    Declare,
    /// P1_DISCARD: seats over their limit discard the excess.
    Discard,
    /// P2_ADD_LINE: fp chooses a side.
    AddLine,
    /// P3_MANIPULATE: one MoveCrisis or pass per seat.
    Manipulate,
    /// P4_PLACE: seats with an earmark place it.
    Place,
    /// P5_OFFER: `seller` builds a lot.
    Offer {
        /// The pending seller.
        seller: Seat,
        /// The least value it may declare.
        min: u32,
        /// FINAL mode (buyer must be fp) rather than OPEN.
        final_offer: bool,
    },
    /// P5_RESPOND: the offer's buyer buys or accuses.
    Respond,
    /// P5_LIQUIDATE: the debtor chooses cards to liquidate.
    Liquidate {
        /// The pending debt.
        debt: Debt,
    },
    /// P6_RETURN: seats over their limit return the excess.
    Return,
    /// P6_REVEAL: seats in ord may reveal a complete portfolio.
    Reveal,
    /// GAME_OVER.
    GameOver,
}

/// Per-seat state (§2.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Money.
    pub purse: u32,
    /// Index into `options.investment_options`, once declared this round.
    pub option: Option<usize>,
    /// Money set aside for Phase 4.
    pub earmark: u32,
    /// Portfolio limit this round.
    pub limit: u32,
    /// The hand, kept sorted in catalogue order.
    pub hand: Vec<Card>,
    /// Acted as seller this round.
    pub sold: bool,
    /// Responded as buyer this round.
    pub bought: bool,
    /// Took the Phase 3 turn this round.
    pub manipulated: bool,
    /// Answered the Phase 6 reveal prompt this round.
    pub reveal_decided: bool,
    /// Out of the game.
    pub bankrupt: bool,
}

impl Player {
    /// A fresh seat with `purse` money and an empty hand.
    pub fn new(purse: u32) -> Player {
        Player {
            purse,
            option: None,
            earmark: 0,
            limit: 0,
            hand: Vec::new(),
            sold: false,
            bought: false,
            manipulated: false,
            reveal_decided: false,
            bankrupt: false,
        }
    }

    /// Adds a card, keeping catalogue order.
    pub fn add_card(&mut self, card: Card) {
        let at = self.hand.partition_point(|&c| c < card);
        self.hand.insert(at, card);
    }

    /// Removes a card if held.
    pub fn remove_card(&mut self, card: Card) -> bool {
        match self.hand.iter().position(|&c| c == card) {
            Some(at) => {
                self.hand.remove(at);
                true
            }
            None => false,
        }
    }
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::EndReason))]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Exactly one seat is left.
    SoleSurvivor,
    /// Four or more crises, or a lie exposed a lot with no tulip.
    Collapse,
    /// A seat revealed a complete portfolio.
    Reveal,
    /// Round 5 ended.
    RoundLimit,
}

impl EndReason {
    /// The snake_case name used as `Outcome::reason`.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::SoleSurvivor => "sole_survivor",
            EndReason::Collapse => "collapse",
            EndReason::Reveal => "reveal",
            EndReason::RoundLimit => "round_limit",
        }
    }
}

/// The result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::GameResult))]
pub struct GameResult {
    /// Why the game ended.
    pub reason: EndReason,
    /// Every seat, best first.
    pub ranking: Vec<Seat>,
    /// Scores by seat (null for bankrupt seats); null altogether for a sole survivor.
    pub scores: Option<Vec<Option<i64>>>,
}

/// The whole game state. The RNG is not stored: each log entry supplies its own stream.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TulipTraders {
    /// The options (public).
    pub options: Options,
    /// Seats at the table.
    pub n_seats: u8,
    /// The round, 1..=5.
    pub round: u8,
    /// The first player, holder of the Portfolio deck.
    pub fp: Seat,
    /// The machine state.
    pub phase: Phase,
    /// The market grid.
    pub grid: Grid,
    /// Undrawn Market cards, top first (secret).
    pub market_deck: Vec<Cell>,
    /// The Portfolio deck, top first (secret).
    pub portfolio_deck: Vec<Card>,
    /// SACKs not in play, ascending.
    pub sack_supply: Vec<Card>,
    /// Net money the bank has put into play (I1).
    pub bank_issued: i64,
    /// Set by a lie exposing a lot with no tulip.
    pub collapse_flag: bool,
    /// The lot in flight.
    pub offer: Option<Offer>,
    /// Per-seat state.
    pub players: Vec<Player>,
    /// Bankrupt seats in order of elimination.
    pub elimination_order: Vec<Seat>,
    /// The result, once over.
    pub result: Option<GameResult>,
}

impl TulipTraders {
    /// The round-table row of the current round.
    pub fn row(&self) -> RoundRow {
        self.options.round_table[usize::from(self.round.clamp(1, 5)) - 1]
    }

    /// RV(r).
    pub fn rv(&self) -> u32 {
        self.row().rv
    }

    /// ord: survivors starting at fp (or the next survivor to its left), going left.
    pub fn ord(&self) -> Vec<Seat> {
        let n = self.n_seats;
        (0..n)
            .map(|k| Seat((self.fp.0 + k) % n))
            .filter(|seat| !self.players[seat.index()].bankrupt)
            .collect()
    }

    /// Seats not bankrupt.
    pub fn survivors(&self) -> usize {
        self.players.iter().filter(|p| !p.bankrupt).count()
    }

    /// The player at `seat`.
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    /// The grid cell of a Market card, if on the grid.
    pub fn cell(&self, cell: Cell) -> Option<&GridCell> {
        self.grid.slots.iter().flatten().find(|c| c.cell == cell)
    }

    /// Number of cells in crisis.
    pub fn crisis_count(&self) -> usize {
        self.grid
            .slots
            .iter()
            .flatten()
            .filter(|c| c.crisis)
            .count()
    }

    /// §2.6 mv(x) on the current state (collapse is handled by scoring).
    pub fn mv(&self, card: Card) -> u32 {
        if let Some(cell) = card.cell() {
            return match self.cell(cell) {
                Some(c) if !c.crisis => c.tokens,
                _ => 0,
            };
        }
        match card {
            Card::Semper => match self.options.semper_value {
                crate::options::SemperValue::MaxMarket => self
                    .grid
                    .slots
                    .iter()
                    .flatten()
                    .filter(|c| !c.crisis)
                    .map(|c| c.tokens)
                    .max()
                    .unwrap_or(0),
                crate::options::SemperValue::Fixed(n) => n,
            },
            Card::Queen => self.options.queen_per_crisis * self.crisis_count() as u32,
            Card::Bouquet => self.options.bouquet_value,
            _ => 0,
        }
    }

    /// `cap(p)`: purse plus the mv of every tulip in hand.
    pub fn cap(&self, seat: Seat) -> u64 {
        let player = self.player(seat);
        u64::from(player.purse)
            + player
                .hand
                .iter()
                .filter(|c| c.is_tulip())
                .map(|&c| u64::from(self.mv(c)))
                .sum::<u64>()
    }

    /// E(s): eligible buyers of seller `s` (§2.6).
    pub fn eligible_buyers(&self, seller: Seat) -> Vec<Seat> {
        self.ord()
            .into_iter()
            .filter(|&p| p != seller && !self.player(p).sold && !self.player(p).bought)
            .collect()
    }

    /// Whether fp can receive a FINAL offer from `seller`.
    pub fn fp_available(&self, seller: Seat) -> bool {
        self.fp != seller && !self.player(self.fp).bankrupt && !self.player(self.fp).bought
    }

    /// The seat expected to act, if any.
    pub fn actor(&self) -> Option<Seat> {
        let first =
            |pred: &dyn Fn(&Player) -> bool| self.ord().into_iter().find(|s| pred(self.player(*s)));
        match &self.phase {
            Phase::Declare => first(&|p| p.option.is_none()),
            Phase::Discard | Phase::Return => first(&|p| p.hand.len() > p.limit as usize),
            Phase::AddLine => Some(self.fp),
            Phase::Manipulate => first(&|p| !p.manipulated),
            Phase::Place => first(&|p| p.earmark > 0),
            Phase::Offer { seller, .. } => Some(*seller),
            Phase::Respond => self.offer.as_ref().map(|o| o.buyer),
            Phase::Liquidate { debt } => Some(debt.debtor),
            Phase::Reveal => first(&|p| !p.reveal_decided),
            Phase::GameOver => None,
        }
    }

    /// Puts a card away: SACKs to the supply (default), everything else to the deck bottom.
    pub(crate) fn dispose(&mut self, card: Card) {
        if card.is_sack() && self.options.sacks_to_supply {
            let at = self.sack_supply.partition_point(|&c| c < card);
            self.sack_supply.insert(at, card);
        } else {
            self.portfolio_deck.push(card);
        }
    }
}
