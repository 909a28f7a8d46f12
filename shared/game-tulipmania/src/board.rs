//! The market board (spec §1.5): a table of price spaces and the arrows between them.
//!
//! The printed board is not known exactly, so the board is data: the default table
//! [`RECONSTRUCTED_V1`] (spec §1.5.3) or any replacement given through the `board` option,
//! checked by [`Board::resolve`] against the validation rules of spec §1.5.7.

use crate::pieces::Florins;
use serde::{Deserialize, Serialize};

/// An index into [`Board::spaces`].
pub type SpaceIdx = u8;

/// Prices at or above this are burst prices; a current space is always below it (§1.5.7 rule 5).
pub const BURST_THRESHOLD: Florins = 3000;

/// The highest price of the bottom ("cheap tulip") row: an all-pass sale at or below it pays
/// the current price and moves left without a transition space (spec §4.2).
pub const CHEAP_LIMIT: Florins = 100;

/// What a board space is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::SpaceKind))]
pub enum SpaceKind {
    /// A white price space: a marker rests here between moves.
    Current,
    /// A grey space a speculation or an all-pass sale pays at, on the way to its landing space.
    Transition,
    /// A gold space of the top row: landing here bursts the colour.
    Burst,
}

/// One space of a board table, as given in the `board` option and shown in views
/// (the JSON shape of a replacement board). Arrows name other spaces by id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::Space))]
pub struct SpaceSpec {
    /// The space's id, `r<row>c<col>` on the default board.
    pub id: String,
    /// The price printed on the space, in florins.
    pub value: i64,
    /// Current, transition or burst.
    pub kind: SpaceKind,
    /// Whether the price markers start here (exactly one space, worth ƒ50).
    #[serde(default)]
    pub start: bool,
    /// Green arrow: where a purchase moves the price.
    #[serde(default)]
    pub purchase: Option<String>,
    /// Gold arrow: the transition space a speculation pays at.
    #[serde(default)]
    pub speculate_via: Option<String>,
    /// Gold arrow: where a speculation moves the price.
    #[serde(default)]
    pub speculate_to: Option<String>,
    /// Pink arrow: the transition space an all-pass sale pays at (only above ƒ100).
    #[serde(default)]
    pub sale_via: Option<String>,
    /// Pink arrow: where an all-pass sale moves the price.
    #[serde(default)]
    pub sale_to: Option<String>,
    /// One step of a burst descent.
    pub down: String,
}

/// The `board` option: the name of a built-in table, or a whole replacement table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::BoardOption))]
pub enum BoardOption {
    /// A built-in board, e.g. `"reconstructed_v1"`.
    Named(BoardName),
    /// A replacement table, `{"spaces": [...]}`: its spaces must form a valid board.
    Custom(CustomBoard),
}

impl Default for BoardOption {
    fn default() -> Self {
        BoardOption::Named(BoardName::ReconstructedV1)
    }
}

/// The burst descent from a bottom-row space.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::BottomDescent))]
pub enum BottomDescent {
    /// Follow the bottom row's pink arrow to the next lower current price; ƒ25 stays.
    #[default]
    FollowLeftArrow,
    /// The price stays where it is once the descent reaches a space worth ƒ100 or less.
    Stay,
}

/// The built-in boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::BoardName))]
pub enum BoardName {
    /// The reconstructed board of spec §1.5.3 (the default).
    ReconstructedV1,
}

/// A replacement board table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::CustomBoard))]
pub struct CustomBoard {
    /// Every space of the board.
    pub spaces: Vec<SpaceSpec>,
}

/// One row of a built-in board table: `(id, value, kind, start, purchase, speculate_via,
/// speculate_to, sale_via, sale_to, down)`.
pub type SpaceRow = (
    &'static str,
    Florins,
    SpaceKind,
    bool,
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
    &'static str,
);

use SpaceKind::{Burst as B, Current as C, Transition as T};

/// The default board `reconstructed_v1`, transcribed from the table of spec §1.5.3.
/// Rows r0, r2, r4 are current prices, r1, r3, r5 transition spaces, r6 burst spaces.
#[rustfmt::skip]
pub const RECONSTRUCTED_V1: [SpaceRow; 28] = [
    // id     value kind start purchase      spec via      spec to       sale via      sale to       down
    ("r0c0",    25, C, false, Some("r0c1"), Some("r1c0"), Some("r2c0"), None,         Some("r0c0"), "r0c0"),
    ("r0c1",    50, C, true,  Some("r0c2"), Some("r1c1"), Some("r2c1"), None,         Some("r0c0"), "r0c0"),
    ("r0c2",    75, C, false, Some("r0c3"), Some("r1c2"), Some("r2c2"), None,         Some("r0c1"), "r0c1"),
    ("r0c3",   100, C, false, Some("r2c0"), Some("r1c3"), Some("r2c3"), None,         Some("r0c2"), "r0c2"),
    ("r1c0",    75, T, false, None,         None,         None,         None,         None,         "r0c0"),
    ("r1c1",   150, T, false, None,         None,         None,         None,         None,         "r0c1"),
    ("r1c2",   225, T, false, None,         None,         None,         None,         None,         "r0c2"),
    ("r1c3",   300, T, false, None,         None,         None,         None,         None,         "r0c3"),
    ("r2c0",   125, C, false, Some("r2c1"), Some("r3c0"), Some("r4c0"), Some("r1c0"), Some("r0c0"), "r1c0"),
    ("r2c1",   250, C, false, Some("r2c2"), Some("r3c1"), Some("r4c1"), Some("r1c1"), Some("r0c1"), "r1c1"),
    ("r2c2",   375, C, false, Some("r2c3"), Some("r3c2"), Some("r4c2"), Some("r1c2"), Some("r0c2"), "r1c2"),
    ("r2c3",   500, C, false, Some("r4c0"), Some("r3c3"), Some("r4c3"), Some("r1c3"), Some("r0c3"), "r1c3"),
    ("r3c0",   375, T, false, None,         None,         None,         None,         None,         "r2c0"),
    ("r3c1",   750, T, false, None,         None,         None,         None,         None,         "r2c1"),
    ("r3c2",  1125, T, false, None,         None,         None,         None,         None,         "r2c2"),
    ("r3c3",  1500, T, false, None,         None,         None,         None,         None,         "r2c3"),
    ("r4c0",   750, C, false, Some("r4c1"), Some("r5c0"), Some("r6c0"), Some("r3c0"), Some("r2c0"), "r3c0"),
    ("r4c1",  1000, C, false, Some("r4c2"), Some("r5c1"), Some("r6c1"), Some("r3c1"), Some("r2c1"), "r3c1"),
    ("r4c2",  1500, C, false, Some("r4c3"), Some("r5c2"), Some("r6c2"), Some("r3c2"), Some("r2c2"), "r3c2"),
    ("r4c3",  2000, C, false, Some("r6c0"), Some("r5c3"), Some("r6c3"), Some("r3c3"), Some("r2c3"), "r3c3"),
    ("r5c0",  2250, T, false, None,         None,         None,         None,         None,         "r4c0"),
    ("r5c1",  3000, T, false, None,         None,         None,         None,         None,         "r4c1"),
    ("r5c2",  4500, T, false, None,         None,         None,         None,         None,         "r4c2"),
    ("r5c3",  6000, T, false, None,         None,         None,         None,         None,         "r4c3"),
    ("r6c0",  3000, B, false, None,         None,         None,         None,         None,         "r5c0"),
    ("r6c1",  4000, B, false, None,         None,         None,         None,         None,         "r5c1"),
    ("r6c2",  6000, B, false, None,         None,         None,         None,         None,         "r5c2"),
    ("r6c3",  8000, B, false, None,         None,         None,         None,         None,         "r5c3"),
];

/// The space table of a built-in board, in the option's JSON shape.
pub fn builtin_spaces(name: BoardName) -> Vec<SpaceSpec> {
    let rows: &[SpaceRow] = match name {
        BoardName::ReconstructedV1 => &RECONSTRUCTED_V1,
    };
    let text = |id: Option<&str>| id.map(str::to_owned);
    rows.iter()
        .map(
            |&(
                id,
                value,
                kind,
                start,
                purchase,
                speculate_via,
                speculate_to,
                sale_via,
                sale_to,
                down,
            )| SpaceSpec {
                id: id.to_owned(),
                value,
                kind,
                start,
                purchase: text(purchase),
                speculate_via: text(speculate_via),
                speculate_to: text(speculate_to),
                sale_via: text(sale_via),
                sale_to: text(sale_to),
                down: down.to_owned(),
            },
        )
        .collect()
}

/// A resolved space: the arrows are indices into [`Board::spaces`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Space {
    /// The space's id.
    pub id: String,
    /// Its price.
    pub value: Florins,
    /// Its kind.
    pub kind: SpaceKind,
    /// Green arrow (current spaces only).
    pub purchase: Option<SpaceIdx>,
    /// Gold arrow, pays-at space (current spaces only).
    pub speculate_via: Option<SpaceIdx>,
    /// Gold arrow, landing space (current spaces only).
    pub speculate_to: Option<SpaceIdx>,
    /// Pink arrow, pays-at space (current spaces above ƒ100 only).
    pub sale_via: Option<SpaceIdx>,
    /// Pink arrow, landing space (current spaces only).
    pub sale_to: Option<SpaceIdx>,
    /// One step of a burst descent (after the `bottom_descent` option is applied).
    pub down: SpaceIdx,
}

/// A validated board with resolved arrows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// The spaces, in the order of the table.
    pub spaces: Vec<Space>,
    /// The start space (ƒ50).
    pub start: SpaceIdx,
}

/// Why a board table was refused (spec §1.5.7); becomes `SetupError::InvalidOptions`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Two spaces share an id.
    #[error("board: duplicate space id {0}")]
    DuplicateId(String),
    /// An arrow names a space that is not in the table.
    #[error("board: space {from} points to unknown space {to}")]
    UnknownTarget {
        /// The space with the arrow.
        from: String,
        /// The missing id.
        to: String,
    },
    /// The table is empty or has more than 255 spaces.
    #[error("board: a board needs 1 to 255 spaces, not {0}")]
    Size(usize),
    /// One of the numbered rules of spec §1.5.7 is broken.
    #[error("board: space {space} breaks rule {rule} of spec 1.5.7: {what}")]
    Rule {
        /// The rule number (1–7).
        rule: u8,
        /// The space concerned.
        space: String,
        /// What is wrong.
        what: &'static str,
    },
}

fn broken(rule: u8, space: &str, what: &'static str) -> BoardError {
    BoardError::Rule {
        rule,
        space: space.to_owned(),
        what,
    }
}

impl Board {
    /// The built-in board `name`.
    pub fn builtin(name: BoardName, bottom_descent: BottomDescent) -> Board {
        Board::resolve(&builtin_spaces(name), bottom_descent)
            .expect("the built-in boards are valid")
    }

    /// Resolves and validates the board of an option (spec §1.5.7).
    pub fn from_option(
        option: &BoardOption,
        bottom_descent: BottomDescent,
    ) -> Result<Board, BoardError> {
        match option {
            BoardOption::Named(name) => Ok(Board::builtin(*name, bottom_descent)),
            BoardOption::Custom(custom) => Board::resolve(&custom.spaces, bottom_descent),
        }
    }

    /// Resolves the ids of `specs` into indices and checks every rule of spec §1.5.7. With
    /// `BottomDescent::Stay`, the descent from a current space worth ≤ ƒ100 stays put.
    pub fn resolve(
        specs: &[SpaceSpec],
        bottom_descent: BottomDescent,
    ) -> Result<Board, BoardError> {
        if specs.is_empty() || specs.len() > 255 {
            return Err(BoardError::Size(specs.len()));
        }
        for (i, spec) in specs.iter().enumerate() {
            if specs[..i].iter().any(|other| other.id == spec.id) {
                return Err(BoardError::DuplicateId(spec.id.clone()));
            }
        }
        let find =
            |from: &SpaceSpec, to: &Option<String>| -> Result<Option<SpaceIdx>, BoardError> {
                match to {
                    None => Ok(None),
                    Some(to) => specs
                        .iter()
                        .position(|spec| &spec.id == to)
                        .map(|index| Some(index as SpaceIdx))
                        .ok_or_else(|| BoardError::UnknownTarget {
                            from: from.id.clone(),
                            to: to.clone(),
                        }),
                }
            };
        let mut spaces = Vec::with_capacity(specs.len());
        for spec in specs {
            let down = find(spec, &Some(spec.down.clone()))?.expect("down is always given");
            spaces.push(Space {
                id: spec.id.clone(),
                value: spec.value,
                kind: spec.kind,
                purchase: find(spec, &spec.purchase)?,
                speculate_via: find(spec, &spec.speculate_via)?,
                speculate_to: find(spec, &spec.speculate_to)?,
                sale_via: find(spec, &spec.sale_via)?,
                sale_to: find(spec, &spec.sale_to)?,
                down,
            });
        }
        let starts: Vec<usize> = specs
            .iter()
            .enumerate()
            .filter(|(_, spec)| spec.start)
            .map(|(index, _)| index)
            .collect();
        // Rule 1: one start space, worth 50, current.
        let start = match starts.as_slice() {
            [start] => *start,
            _ => {
                return Err(broken(
                    1,
                    "(start)",
                    "there must be exactly one start space",
                ))
            }
        };
        if spaces[start].value != 50 || spaces[start].kind != SpaceKind::Current {
            return Err(broken(
                1,
                &spaces[start].id,
                "the start space must be a current space worth 50",
            ));
        }
        let board = Board {
            spaces,
            start: start as SpaceIdx,
        };
        board.validate()?;
        let mut board = board;
        if bottom_descent == BottomDescent::Stay {
            for (index, space) in board.spaces.iter_mut().enumerate() {
                if space.kind == SpaceKind::Current && space.value <= CHEAP_LIMIT {
                    space.down = index as SpaceIdx;
                }
            }
        }
        Ok(board)
    }

    fn validate(&self) -> Result<(), BoardError> {
        let value = |index: SpaceIdx| self.spaces[usize::from(index)].value;
        let kind = |index: SpaceIdx| self.spaces[usize::from(index)].kind;
        for (index, space) in self.spaces.iter().enumerate() {
            let id = space.id.as_str();
            // Rule 7.
            if space.value <= 0 || space.value % 25 != 0 {
                return Err(broken(
                    7,
                    id,
                    "every value must be a positive multiple of 25",
                ));
            }
            match space.kind {
                SpaceKind::Current => {
                    // Rule 5.
                    if space.value >= BURST_THRESHOLD {
                        return Err(broken(
                            5,
                            id,
                            "a current space must be worth less than 3000",
                        ));
                    }
                    // Rule 2.
                    let (Some(purchase), Some(via), Some(to), Some(sale_to)) = (
                        space.purchase,
                        space.speculate_via,
                        space.speculate_to,
                        space.sale_to,
                    ) else {
                        return Err(broken(
                            2,
                            id,
                            "a current space needs purchase, speculate and sale arrows",
                        ));
                    };
                    if space.value > CHEAP_LIMIT {
                        let Some(sale_via) = space.sale_via else {
                            return Err(broken(
                                2,
                                id,
                                "a current space above 100 needs a sale transition",
                            ));
                        };
                        // Rule 3.
                        if !(value(sale_to) < value(sale_via) && value(sale_via) < space.value) {
                            return Err(broken(
                                3,
                                id,
                                "the sale arrow must pay less than the price and land lower still",
                            ));
                        }
                        if kind(sale_via) != SpaceKind::Transition {
                            return Err(broken(4, id, "sale_via must be a transition space"));
                        }
                    } else {
                        if space.sale_via.is_some() {
                            return Err(broken(
                                2,
                                id,
                                "a current space of 100 or less has no sale transition",
                            ));
                        }
                        let lower = self
                            .spaces
                            .iter()
                            .filter(|other| {
                                other.kind == SpaceKind::Current && other.value < space.value
                            })
                            .map(|other| other.value)
                            .max();
                        let expected_ok = match lower {
                            Some(lower) => value(sale_to) == lower,
                            None => usize::from(sale_to) == index,
                        };
                        if !expected_ok {
                            return Err(broken(2, id, "a cheap sale must land on the next lower current price, or stay at the minimum"));
                        }
                    }
                    // Rule 3.
                    if value(purchase) <= space.value {
                        return Err(broken(3, id, "a purchase must raise the price"));
                    }
                    if !(space.value < value(via) && value(via) < value(to)) {
                        return Err(broken(
                            3,
                            id,
                            "a speculation must pay more than the price and land higher still",
                        ));
                    }
                    // Rule 4.
                    if kind(via) != SpaceKind::Transition {
                        return Err(broken(4, id, "speculate_via must be a transition space"));
                    }
                    for target in [purchase, to] {
                        if kind(target) == SpaceKind::Transition {
                            return Err(broken(
                                4,
                                id,
                                "purchase and speculate_to must land on a current or burst space",
                            ));
                        }
                        // Rule 5: landing at 3000 or more is exactly landing on a burst space.
                        if (kind(target) == SpaceKind::Burst) != (value(target) >= BURST_THRESHOLD)
                        {
                            return Err(broken(5, id, "a landing space is a burst space exactly when it is worth 3000 or more"));
                        }
                    }
                    if kind(sale_to) != SpaceKind::Current {
                        return Err(broken(4, id, "sale_to must be a current space"));
                    }
                }
                SpaceKind::Transition | SpaceKind::Burst => {
                    if space.purchase.is_some()
                        || space.speculate_via.is_some()
                        || space.speculate_to.is_some()
                        || space.sale_via.is_some()
                        || space.sale_to.is_some()
                    {
                        return Err(broken(4, id, "transition and burst spaces have no purchase, speculate or sale arrows"));
                    }
                    if space.kind == SpaceKind::Burst && space.value < BURST_THRESHOLD {
                        return Err(broken(5, id, "a burst space must be worth 3000 or more"));
                    }
                }
            }
            // Rule 6: the descent reaches a fixed point and never rises.
            let mut at = index as SpaceIdx;
            let mut steps = 0;
            loop {
                let next = self.spaces[usize::from(at)].down;
                if value(next) > value(at) {
                    return Err(broken(6, id, "a burst descent must never raise the price"));
                }
                if next == at {
                    break;
                }
                at = next;
                steps += 1;
                if steps > self.spaces.len() {
                    return Err(broken(
                        6,
                        id,
                        "a burst descent must end at a space that descends to itself",
                    ));
                }
            }
        }
        Ok(())
    }

    /// The space at `index`.
    pub fn space(&self, index: SpaceIdx) -> &Space {
        &self.spaces[usize::from(index)]
    }

    /// The price of the space at `index`.
    pub fn value(&self, index: SpaceIdx) -> Florins {
        self.spaces[usize::from(index)].value
    }

    /// The index of the space with this id.
    pub fn find(&self, id: &str) -> Option<SpaceIdx> {
        self.spaces
            .iter()
            .position(|space| space.id == id)
            .map(|index| index as SpaceIdx)
    }

    /// The table in the option's JSON shape (for views).
    pub fn specs(&self) -> Vec<SpaceSpec> {
        let id = |index: Option<SpaceIdx>| index.map(|index| self.space(index).id.clone());
        self.spaces
            .iter()
            .enumerate()
            .map(|(index, space)| SpaceSpec {
                id: space.id.clone(),
                value: space.value,
                kind: space.kind,
                start: index == usize::from(self.start),
                purchase: id(space.purchase),
                speculate_via: id(space.speculate_via),
                speculate_to: id(space.speculate_to),
                sale_via: id(space.sale_via),
                sale_to: id(space.sale_to),
                down: self.space(space.down).id.clone(),
            })
            .collect()
    }
}
