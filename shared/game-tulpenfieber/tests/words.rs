//! The log in words: exact sentences for Tulpenfieber's actions and events.

use game_core::words::Names;
use game_core::{Game, Seat};
use game_tulpenfieber::action::Action;
use game_tulpenfieber::board::{Space, WinCondition};
use game_tulpenfieber::event::{Event, RolledDie};
use game_tulpenfieber::state::{BonusTile, GameResult, SoloTier, TileRef};
use game_tulpenfieber::Tulpenfieber;

fn names() -> Vec<Option<String>> {
    vec![Some("Anna".into()), Some("Ben".into())]
}

fn action(action: Action, seat: u8) -> String {
    Tulpenfieber::describe_action(&action, Seat(seat), &Names::new(&names()))
}

fn event(event: Event) -> String {
    Tulpenfieber::describe_event(&event, &Names::new(&names()))
}

#[test]
fn moves_name_their_player_and_count_dice_from_one() {
    assert_eq!(action(Action::Roll {}, 0), "Anna rolled the dice.");
    assert_eq!(
        action(Action::Reroll { dice: vec![0, 2] }, 1),
        "Ben rerolled dice 1 and 3."
    );
    assert_eq!(
        action(Action::Reroll { dice: vec![3] }, 1),
        "Ben rerolled die 4."
    );
    assert_eq!(
        action(
            Action::Place {
                space: Space::new(3, 5)
            },
            0
        ),
        "Anna placed a tulip at row 3, column 5."
    );
    assert_eq!(
        action(
            Action::BuyRoll {
                flip: [TileRef::Field(Space::new(1, 2)), TileRef::Above(0)]
            },
            0
        ),
        "Anna turned the tile at row 1, column 2 and tile 1 above the field to buy another roll."
    );
    assert_eq!(
        action(
            Action::ClaimBonus {
                row: 1,
                col: 2,
                height: 2,
                width: 3
            },
            1
        ),
        "Ben claimed a wheelbarrow for the 2 by 3 block from row 1, column 2."
    );
}

#[test]
fn rolls_say_what_was_rolled_and_what_the_dice_show() {
    let rolled = Event::Rolled {
        seat: Seat(1),
        roll_number: 2,
        rolled: vec![
            RolledDie { die: 0, value: 6 },
            RolledDie { die: 3, value: 2 },
        ],
        dice: vec![6, 4, 4, 2],
    };
    assert_eq!(
        event(rolled),
        "Ben rolled 6 and 2 (roll 2); the dice now show 6, 4, 4 and 2."
    );
    assert_eq!(
        event(Event::TurnStarted {
            seat: Seat(0),
            turn_number: 3,
            dice_count: 5,
            wheelbarrow_dice: 1
        }),
        "Turn 3: Anna plays with 5 dice, 1 die from wheelbarrows."
    );
}

#[test]
fn bonuses_and_the_end_read_as_the_rules_say_them() {
    assert_eq!(
        event(Event::BonusClaimed {
            seat: Seat(0),
            bonus: 0,
            area: BonusTile {
                row: 2,
                col: 1,
                height: 3,
                width: 2
            },
            supply_left: 9
        }),
        "Anna claimed wheelbarrow 1 on the 3 by 2 block from row 2, column 1; 9 left in the supply."
    );
    assert_eq!(
        event(Event::GameWon {
            seat: Seat(1),
            condition: WinCondition::RowFiveThreeAdjacent
        }),
        "Ben won by covering three adjacent spaces of row five."
    );
    assert_eq!(
        event(Event::SoloFinished {
            result: GameResult::SoloResult {
                round_scores: vec![14, 15, 16],
                total: 45,
                tier: SoloTier::VeryGood
            },
            tier: SoloTier::VeryGood
        }),
        "The solo game is over: rounds of 14, 15 and 16, 45 in all, a very good result."
    );
}

#[test]
fn the_summary_is_a_few_plain_sentences() {
    let summary = Tulpenfieber::SUMMARY;
    game_core::words::check_sentence(summary, &"the summary");
    let sentences = summary.matches(". ").count() + 1;
    assert!((2..=5).contains(&sentences), "{summary}");
}
