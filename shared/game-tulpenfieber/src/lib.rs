//! Tulpenfieber (Uwe Rosenberg, AMIGO) as a pure rules crate for Beurs: 1–4 players race to
//! fill their tulip fields with dice combinations; the solo game is three rounds scored by
//! the tiles used. The rules implemented are `/work/shared/rules/tulpenfieber.md` (draft v1);
//! section numbers (§) and decisions (D) in comments refer to it, and
//! `docs/rules/tulpenfieber.md` restates them with every decision taken.
//!
//! Layout:
//! - [`board`]: spaces, tiles, the field, dice matching (§1.2), lines and extra dice (§3.3),
//!   the instant-win predicate (§6.1);
//! - [`options`]: the options of §7.2, including the reconstructed requirement grid and
//!   flower spaces as replaceable data;
//! - [`state`]: the state model of §2 (all fields public);
//! - [`action`]: actions (§4), events, errors and their codes;
//! - `rules`: the turn state machine: `check`, execution, legal actions;
//! - [`view`]: the view every viewer gets;
//! - [`scenario`]: helpers to build positions for tests and tools.
//!
//! Architecture invariant: `Tulpenfieber::check` is the only place that decides legality;
//! `apply` calls it before any mutation, and `legal_actions` filters candidates through it.
//! All information is public; the only randomness is dice, drawn from the `GameRng` passed
//! to `apply`, one `roll_d6` per rolled die in ascending die order (§5).
//!
//! Glossary: *flower space* = starting space; *wheelbarrow* = bonus tile, whose die
//! (*wheelbarrow die*) is set to a chosen face at turn start; *above* = tiles placed above
//! the field when the dice match no empty space; seats are 0-based (the spec's seat k is
//! seat k−1).

pub mod action;
pub mod board;
pub mod options;
mod rules;
pub mod scenario;
pub mod state;
pub mod view;
mod words;

pub use action::{Action, Event, RolledDie, TulpenfieberError};
pub use board::{Cell, DiceSummary, Field, Side, Space, Tile, TileKind, WinCondition};
pub use options::{AbovePlacement, Board, Options, StartSpaces};
pub use rules::phase_name;
pub use state::{
    BonusTile, Die, GameResult, Phase, Player, Solo, SoloTier, TileRef, Tulpenfieber, Turn,
};
pub use view::{PlayerView, TulpenfieberView};

use game_core::words::Names;
use game_core::Redeal;
use game_core::{Game, GameRng, LegalAction, Logged, Outcome, Seat, SeatSet, SetupError, Viewer};

impl Game for Tulpenfieber {
    const RULESET: &'static str = "tulpenfieber";
    const NAME: &'static str = "Tulpenfieber";
    const RULES_VERSION: u32 = 1;
    const SUMMARY: &'static str = words::SUMMARY;
    const MIN_SEATS: u8 = 1;
    const MAX_SEATS: u8 = 4;
    const ACTIONS: &'static [&'static str] = &[
        "set_bonus_die",
        "roll",
        "reroll",
        "buy_roll",
        "place",
        "place_above",
        "claim_bonus",
        "end_turn",
        "start_next_round",
    ];
    const PASSES: &'static [&'static str] = &["end_turn"];

    type Options = Options;
    type Action = Action;
    type Event = Event;
    type View = TulpenfieberView;
    type Error = TulpenfieberError;

    /// §1.4 / §1.5: no randomness is used at setup. Logs `boards_dealt` and the first
    /// `turn_started`, both public.
    fn setup(
        n_seats: u8,
        options: &Options,
        _rng: &mut GameRng,
    ) -> Result<(Self, Vec<Logged<Event>>), SetupError> {
        if !(Self::MIN_SEATS..=Self::MAX_SEATS).contains(&n_seats) {
            return Err(SetupError::SeatCount {
                min: Self::MIN_SEATS,
                max: Self::MAX_SEATS,
                got: n_seats,
            });
        }
        options.validate()?;
        let boards: Vec<Board> = match n_seats {
            1 => vec![Board::Back],
            2 => options.two_player_boards.to_vec(),
            3 => vec![Board::I, Board::II, Board::III],
            _ => vec![Board::I, Board::II, Board::III, Board::IV],
        };
        let players = boards
            .into_iter()
            .map(|board| Player::new(board, options))
            .collect();
        let solo = (n_seats == 1).then(|| Solo {
            round: 1,
            round_scores: Vec::new(),
        });
        let mut game = Tulpenfieber {
            options: std::sync::Arc::new(options.clone()),
            players,
            active: Seat(0),
            phase: Phase::AwaitFirstRoll,
            turn: Turn::default(),
            bonus_supply: options.bonus_supply,
            turn_number: 1,
            solo,
            result: None,
        };
        let mut events = vec![Event::BoardsDealt {
            boards: game.players.iter().map(|player| player.board).collect(),
        }];
        game.start_turn(&mut events);
        Ok((game, events.into_iter().map(Logged::public).collect()))
    }

    fn n_seats(&self) -> u8 {
        self.players.len() as u8
    }

    fn to_act(&self) -> SeatSet {
        if self.phase == Phase::GameOver {
            SeatSet::EMPTY
        } else {
            SeatSet::only(self.active)
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<LegalAction<Action>> {
        self.legal_action_list(seat)
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        rng: &mut GameRng,
    ) -> Result<Vec<Logged<Event>>, TulpenfieberError> {
        self.check(seat, &action)?;
        Ok(self.execute(action, rng))
    }

    fn view(&self, _viewer: Viewer) -> TulpenfieberView {
        self.build_view()
    }

    /// §6.4.
    fn outcome(&self) -> Option<Outcome> {
        match self.result.as_ref()? {
            GameResult::Winner { seat, condition } => {
                let scores = (0..self.players.len())
                    .map(|i| i64::from(i == seat.index()))
                    .collect();
                Some(Outcome::from_scores(scores, condition.reason()))
            }
            GameResult::SoloResult { total, tier, .. } => Some(Outcome {
                scores: vec![i64::from(*total)],
                ranks: vec![1],
                winners: if *tier == SoloTier::Lost {
                    SeatSet::EMPTY
                } else {
                    SeatSet::only(Seat(0))
                },
                reason: tier.reason().to_string(),
            }),
        }
    }

    /// The field that reaches furthest down from row 1 leads (the win is a full row 4 or a
    /// run in row 5), then the most covered spaces.
    fn standing(&self) -> Option<Outcome> {
        let scores = self
            .players
            .iter()
            .map(|player| {
                10 * i64::from(player.field.longest_line()) + player.field.covered_count() as i64
            })
            .collect();
        Some(Outcome::from_scores(scores, "standing"))
    }

    fn describe_action(action: &Action, seat: Seat, names: &Names) -> String {
        words::describe_action(action, seat, names)
    }

    fn describe_event(event: &Event, names: &Names) -> String {
        words::describe_event(event, names)
    }
}

/// Everything is public (§2): a re-deal is the same state.
impl Redeal for Tulpenfieber {
    fn redeal(&self, _viewer: Viewer, _rng: &mut GameRng) -> Self {
        self.clone()
    }
}
