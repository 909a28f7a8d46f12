//! The log in words: every action and event as a sentence a player understands.
//!
//! Each `match` lists every variant without a wildcard, so a new action or event cannot
//! compile without its sentence. Tulpenfieber has no hidden information: every sentence
//! may say everything its event says.

use crate::action::Action;
use crate::board::{Space, WinCondition};
use crate::event::{Event, RolledDie};
use crate::options::Board;
use crate::state::{BonusTile, GameResult, SoloTier, TileRef};
use game_core::words::{join_words, plural, Names};
use game_core::Seat;

/// What the game is about, for players choosing one.
pub const SUMMARY: &str = "Grow a field of tulips with dice: each turn you roll, keep what \
you like and reroll the rest, then lay tulip tiles on the spaces of your field whose dice \
combination you have rolled, from the top row down. Wheelbarrow bonus tiles reward covered \
blocks with extra dice, and turning tiles to their moneybag side buys extra rolls. The first \
player to complete row four, or to cover three adjacent or four spaces of row five, wins; \
alone, you play three rounds against the clock of your own score.";

/// A space as players read it: "row 3, column 5".
fn space(space: Space) -> String {
    format!("row {}, column {}", space.row, space.col)
}

/// A tile named by where it lies.
fn tile(tile: TileRef) -> String {
    match tile {
        TileRef::Field(at) => format!("the tile at {}", space(at)),
        TileRef::Above(index) => format!("tile {} above the field", index + 1),
    }
}

/// An area of the field: "the 2 by 3 block from row 1, column 2".
fn area(height: impl std::fmt::Display, width: impl std::fmt::Display, at: Space) -> String {
    format!("the {height} by {width} block from {}", space(at))
}

fn bonus_area(tile: BonusTile) -> String {
    area(tile.height, tile.width, Space::new(tile.row, tile.col))
}

fn numbers(values: impl IntoIterator<Item = impl std::fmt::Display>) -> String {
    let words: Vec<String> = values.into_iter().map(|value| value.to_string()).collect();
    join_words(&words)
}

fn board(board: Board) -> &'static str {
    match board {
        Board::I => "I",
        Board::II => "II",
        Board::III => "III",
        Board::IV => "IV",
        Board::Back => "the solo side",
    }
}

fn condition(condition: WinCondition) -> &'static str {
    match condition {
        WinCondition::RowFourComplete => "completing row four",
        WinCondition::RowFiveThreeAdjacent => "covering three adjacent spaces of row five",
        WinCondition::RowFiveFourTiles => "covering four spaces of row five",
    }
}

fn tier(tier: SoloTier) -> &'static str {
    match tier {
        SoloTier::Legendary => "a legendary result",
        SoloTier::VeryGood => "a very good result",
        SoloTier::Won => "a win",
        SoloTier::Lost => "a loss",
    }
}

fn rolled(dice: &[RolledDie]) -> String {
    numbers(dice.iter().map(|die| die.value))
}

/// `action` by `seat` in words.
pub fn describe_action(action: &Action, seat: Seat, names: &Names) -> String {
    let who = names.seat(seat);
    match action {
        Action::SetBonusDie { bonus, face } => {
            format!("{who} set wheelbarrow die {} to {face}.", bonus + 1)
        }
        Action::Roll {} => format!("{who} rolled the dice."),
        Action::Reroll { dice } => {
            let dice: Vec<u32> = dice.iter().map(|die| die + 1).collect();
            format!(
                "{who} rerolled {} {}.",
                if dice.len() == 1 { "die" } else { "dice" },
                numbers(dice)
            )
        }
        Action::BuyRoll { flip } => format!(
            "{who} turned {} and {} to buy another roll.",
            tile(flip[0]),
            tile(flip[1])
        ),
        Action::Place { space: at } => format!("{who} placed a tulip at {}.", space(*at)),
        Action::PlaceAbove {} => format!("{who} placed a tulip above the field."),
        Action::ClaimBonus {
            row,
            col,
            height,
            width,
        } => {
            let at = match (u8::try_from(*row), u8::try_from(*col)) {
                (Ok(row), Ok(col)) => space(Space::new(row, col)),
                _ => format!("row {row}, column {col}"),
            };
            format!("{who} claimed a wheelbarrow for the {height} by {width} block from {at}.")
        }
        Action::EndTurn {} => format!("{who} ended the turn."),
        Action::StartNextRound { multicolor } => match multicolor {
            Some(at) => format!(
                "{who} started the next round with the multicoloured tile at {}.",
                space(*at)
            ),
            None => format!("{who} started the next round."),
        },
    }
}

/// `action` as a button's label: what the player does, in the imperative.
pub fn label_action(action: &Action) -> String {
    match action {
        Action::SetBonusDie { bonus, face } => {
            format!("Set wheelbarrow die {} to {face}", bonus + 1)
        }
        Action::Roll {} => "Roll the dice".to_string(),
        Action::Reroll { dice } => {
            let dice: Vec<u32> = dice.iter().map(|die| die + 1).collect();
            format!(
                "Reroll {} {}",
                if dice.len() == 1 { "die" } else { "dice" },
                numbers(dice)
            )
        }
        Action::BuyRoll { flip } => {
            format!("Turn {} and {} to buy a roll", tile(flip[0]), tile(flip[1]))
        }
        Action::Place { space: at } => format!("Place a tulip at {}", space(*at)),
        Action::PlaceAbove {} => "Place a tulip above the field".to_string(),
        Action::ClaimBonus {
            row,
            col,
            height,
            width,
        } => format!(
            "Claim a wheelbarrow for the {height} by {width} block from row {row}, column {col}"
        ),
        Action::EndTurn {} => "End the turn".to_string(),
        Action::StartNextRound { multicolor } => match multicolor {
            Some(at) => format!("Start the next round, multicoloured tile at {}", space(*at)),
            None => "Start the next round".to_string(),
        },
    }
}

/// Whether `event` tells the move `action` itself (the roll's faces, the tile's place): the
/// log's headline for the move.
pub fn restates(action: &Action, event: &Event) -> bool {
    matches!(
        (action, event),
        (Action::SetBonusDie { .. }, Event::BonusDieSet { .. })
            | (
                Action::Roll {} | Action::Reroll { .. },
                Event::Rolled { .. }
            )
            | (Action::BuyRoll { .. }, Event::RollBought { .. })
            | (Action::Place { .. }, Event::TilePlaced { .. })
            | (Action::PlaceAbove {}, Event::TilePlacedAbove { .. })
            | (Action::ClaimBonus { .. }, Event::BonusClaimed { .. })
            | (Action::EndTurn {}, Event::TurnEnded { .. })
            | (Action::StartNextRound { .. }, Event::RoundStarted { .. })
    )
}

/// `event` in words.
pub fn describe_event(event: &Event, names: &Names) -> String {
    match event {
        Event::BoardsDealt { boards } => {
            let boards: Vec<&str> = boards.iter().map(|side| board(*side)).collect();
            format!("The field boards were dealt: {}.", boards.join(", "))
        }
        Event::TurnStarted {
            seat,
            turn_number,
            dice_count,
            wheelbarrow_dice,
        } => {
            let extra = if *wheelbarrow_dice > 0 {
                format!(
                    ", {} from wheelbarrows",
                    plural(*wheelbarrow_dice, "die", "dice")
                )
            } else {
                String::new()
            };
            format!(
                "Turn {turn_number}: {} plays with {}{extra}.",
                names.seat(*seat),
                plural(*dice_count, "die", "dice")
            )
        }
        Event::BonusDieSet { seat, bonus, face } => format!(
            "{} set wheelbarrow die {} to {face}.",
            names.seat(*seat),
            bonus + 1
        ),
        Event::Rolled {
            seat,
            roll_number,
            rolled: dice_rolled,
            dice,
        } => format!(
            "{} rolled {} (roll {roll_number}); the dice now show {}.",
            names.seat(*seat),
            rolled(dice_rolled),
            numbers(dice.iter())
        ),
        Event::RollBought {
            seat,
            flipped,
            rolls_bought,
        } => format!(
            "{} turned {} and {} to moneybags and bought a roll ({} bought this turn).",
            names.seat(*seat),
            tile(flipped[0]),
            tile(flipped[1]),
            rolls_bought
        ),
        Event::TilePlaced { seat, space: at } => {
            format!("{} placed a tulip at {}.", names.seat(*seat), space(*at))
        }
        Event::TilePlacedAbove { seat, index } => format!(
            "{} placed tulip {} above the field.",
            names.seat(*seat),
            index + 1
        ),
        Event::BonusClaimed {
            seat,
            bonus,
            area: claimed,
            supply_left,
        } => format!(
            "{} claimed wheelbarrow {} on {}; {} left in the supply.",
            names.seat(*seat),
            bonus + 1,
            bonus_area(*claimed),
            supply_left
        ),
        Event::TurnEnded { seat, dice_count } => format!(
            "{} ended the turn and will play with {} next time.",
            names.seat(*seat),
            plural(*dice_count, "die", "dice")
        ),
        Event::GameWon {
            seat,
            condition: how,
        } => {
            format!("{} won by {}.", names.seat(*seat), condition(*how))
        }
        Event::RoundEnded {
            round,
            score,
            condition: how,
            eligible,
        } => {
            let eligible = if eligible.is_empty() {
                String::new()
            } else {
                let spaces: Vec<String> = eligible.iter().map(|at| space(*at)).collect();
                format!(
                    " The multicoloured tile may start the next round at {}.",
                    join_words(&spaces)
                )
            };
            format!(
                "Round {round} ended by {} with a score of {score}.{eligible}",
                condition(*how)
            )
        }
        Event::RoundStarted { round, multicolor } => match multicolor {
            Some(at) => format!(
                "Round {round} started with the multicoloured tile at {}.",
                space(*at)
            ),
            None => format!("Round {round} started."),
        },
        Event::SoloFinished { result, tier: how } => match result {
            GameResult::SoloResult {
                round_scores,
                total,
                ..
            } => format!(
                "The solo game is over: rounds of {}, {total} in all, {}.",
                numbers(round_scores.iter()),
                tier(*how)
            ),
            GameResult::Winner {
                seat,
                condition: won,
            } => format!(
                "The game is over: {} won by {}, {}.",
                names.seat(*seat),
                condition(*won),
                tier(*how)
            ),
        },
    }
}
