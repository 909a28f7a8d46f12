//! The turn state machine (§3, §4): `check` is the single source of legality; [`apply`]
//! mutates only after `check` passed; `legal_actions` (in [`crate::legal`]) filters canonical
//! candidates through `check`.

use crate::action::Action;
use crate::board::{Cell, Side, Space, Tile, TileKind, WinCondition, COLS, MAX_DICE, ROWS};
use crate::dice::DiceSummary;
use crate::error::Error;
use crate::event::{Event, RolledDie};
use crate::options::{AbovePlacement, Board};
use crate::state::{
    phase_name, BonusTile, Die, GameResult, Phase, Player, SoloTier, TileRef, Tulpenfieber, Turn,
};
use game_core::{GameRng, Logged, Seat};

/// Validates `action` by `seat` with `check`, then applies it. Draws dice from `rng` in
/// ascending die order. On `Err` nothing has changed.
pub fn apply(
    game: &mut Tulpenfieber,
    seat: Seat,
    action: Action,
    rng: &mut GameRng,
) -> Result<Vec<Logged<Event>>, Error> {
    game.check(seat, &action)?;
    let seat = game.active;
    let mut events = Vec::new();
    match action {
        Action::SetBonusDie { bonus, face } => {
            game.turn.dice[bonus as usize] = Die {
                value: Some(face as u8),
                on_bonus: Some(bonus as u8),
            };
            events.push(Event::BonusDieSet {
                seat,
                bonus: bonus as u8,
                face: face as u8,
            });
            let k = game.wheelbarrow_dice();
            if game.turn.dice[..k].iter().all(|die| die.on_bonus.is_some()) {
                game.phase = Phase::AwaitFirstRoll;
            }
        }
        Action::Roll {} => {
            // Wheelbarrow dice keep their chosen faces (§3.4).
            let mut indices = [0usize; MAX_DICE];
            let mut count = 0;
            for (i, die) in game.turn.dice.iter().enumerate() {
                if die.on_bonus.is_none() {
                    indices[count] = i;
                    count += 1;
                }
            }
            events.push(game.roll_dice(&indices[..count], rng));
        }
        Action::Reroll { dice } => {
            // §5: draws go to the rolled dice in ascending die order.
            let mut indices = [0usize; MAX_DICE];
            for (slot, &die) in indices.iter_mut().zip(&dice) {
                *slot = die as usize;
            }
            let indices = &mut indices[..dice.len()];
            indices.sort_unstable();
            events.push(game.roll_dice(indices, rng));
        }
        Action::BuyRoll { flip } => {
            let player = &mut game.players[seat.index()];
            for tile_ref in flip {
                match tile_ref {
                    TileRef::Field(space) => {
                        if let Cell::Covered { tile, .. } = player.field.cell_mut(space) {
                            tile.side = Side::Moneybag;
                        }
                    }
                    TileRef::Above(index) => player.above[index as usize].side = Side::Moneybag,
                }
            }
            game.turn.rolls_bought += 1;
            game.phase = Phase::RollBought;
            events.push(Event::RollBought {
                seat,
                flipped: flip,
                rolls_bought: game.turn.rolls_bought,
            });
        }
        Action::Place { space } => {
            *game.players[seat.index()].field.cell_mut(space) = Cell::Covered {
                tile: Tile::TULIP,
                bonus: None,
            };
            game.turn.placed = Some(TileRef::Field(space));
            events.push(Event::TilePlaced { seat, space });
            game.check_win(&mut events);
        }
        Action::PlaceAbove {} => {
            let player = &mut game.players[seat.index()];
            player.above.push(Tile::TULIP);
            let index = (player.above.len() - 1) as u32;
            game.turn.placed = Some(TileRef::Above(index));
            events.push(Event::TilePlacedAbove { seat, index });
            game.check_win(&mut events);
        }
        Action::ClaimBonus {
            row,
            col,
            height,
            width,
        } => {
            let area = BonusTile {
                row: row as u8,
                col: col as u8,
                height: height as u8,
                width: width as u8,
            };
            let player = &mut game.players[seat.index()];
            let id = player.bonus_tiles.len() as u8;
            for space in area.spaces() {
                if let Cell::Covered { bonus, .. } = player.field.cell_mut(space) {
                    *bonus = Some(id);
                }
            }
            player.bonus_tiles.push(area);
            game.bonus_supply -= 1;
            game.turn.bonus_claims += 1;
            events.push(Event::BonusClaimed {
                seat,
                bonus: id,
                area,
                supply_left: game.bonus_supply,
            });
        }
        Action::EndTurn {} => {
            let player = &mut game.players[seat.index()];
            // §3.3 / D20: dice earned this turn are used from the next turn on.
            player.dice_count = player.field.dice_for();
            events.push(Event::TurnEnded {
                seat,
                dice_count: player.dice_count as u8,
            });
            game.active = seat.left(game.players.len() as u8);
            game.turn_number += 1;
            game.start_turn(&mut events);
        }
        Action::StartNextRound { multicolor } => game.start_next_round(multicolor, &mut events),
    }
    Ok(events.into_iter().map(Logged::public).collect())
}

impl Tulpenfieber {
    /// What the current dice show (wheelbarrow dice included, §2 `count`).
    pub fn dice_summary(&self) -> DiceSummary {
        DiceSummary::of(self.turn.dice.iter().map(|die| die.value))
    }

    /// `legal_spaces` (§2): the active player's empty spaces the current dice match,
    /// row-major. Meaningful once the dice are rolled.
    pub fn legal_spaces(&self) -> Vec<Space> {
        let summary = self.dice_summary();
        let field = &self.active_player().field;
        Space::all()
            .filter(|&space| !field.is_covered(space) && summary.matches(space, &self.options))
            .collect()
    }

    fn has_legal_space(&self) -> bool {
        let summary = self.dice_summary();
        let field = &self.active_player().field;
        Space::all().any(|space| !field.is_covered(space) && summary.matches(space, &self.options))
    }

    /// Whether `seat` may take `action` now; the first failing check of §4's order.
    pub fn check(&self, seat: Seat, action: &Action) -> Result<(), Error> {
        if self.phase == Phase::GameOver {
            return Err(Error::GameOver);
        }
        if seat != self.active {
            return Err(Error::NotYourTurn(seat));
        }
        let wrong_phase = || {
            Err(Error::WrongPhase {
                action: action.name(),
                phase: phase_name(&self.phase),
            })
        };
        let player = self.active_player();
        match action {
            Action::SetBonusDie { bonus, face } => {
                if self.phase != Phase::AwaitBonusDice {
                    return wrong_phase();
                }
                if *bonus as usize >= player.bonus_tiles.len() {
                    return Err(Error::NoSuchBonus(*bonus));
                }
                if !(1..=6).contains(face) {
                    return Err(Error::FaceOutOfRange(*face));
                }
                if *bonus as usize >= self.wheelbarrow_dice() {
                    return Err(Error::WheelbarrowWithoutDie(*bonus));
                }
                if self.turn.dice[*bonus as usize].on_bonus.is_some() {
                    return Err(Error::BonusDieAlreadySet(*bonus));
                }
                Ok(())
            }
            Action::Roll {} => match self.phase {
                Phase::AwaitFirstRoll => Ok(()),
                _ => wrong_phase(),
            },
            Action::Reroll { dice } => {
                if !matches!(self.phase, Phase::Rolling | Phase::RollBought) {
                    return wrong_phase();
                }
                if dice.is_empty() {
                    return Err(Error::EmptyReroll);
                }
                let mut seen = 0u32;
                for &die in dice {
                    if die as usize >= self.turn.dice.len() {
                        return Err(Error::NoSuchDie {
                            die,
                            dice: self.turn.dice.len(),
                        });
                    }
                    if seen & (1 << die) != 0 {
                        return Err(Error::DuplicateDie(die));
                    }
                    seen |= 1 << die;
                }
                // §3.2: a bought roll may always be made; otherwise the budget must allow it.
                if self.phase == Phase::Rolling && self.turn.roll_number >= self.turn.roll_budget()
                {
                    return Err(Error::RollBudgetUsed(self.turn.roll_budget()));
                }
                Ok(())
            }
            Action::BuyRoll { flip } => {
                if self.phase != Phase::Rolling {
                    return wrong_phase();
                }
                let mut flippable = [false; 2];
                for (i, &tile_ref) in flip.iter().enumerate() {
                    flippable[i] = player
                        .tile_ref_flippable(tile_ref)
                        .ok_or(Error::NoSuchTile(tile_ref))?;
                }
                if flip[0] == flip[1] {
                    return Err(Error::SameTileTwice);
                }
                // D11: only once the current budget is used up, at most twice per turn.
                if self.turn.rolls_bought >= 2 {
                    return Err(Error::NoMoreRollsToBuy);
                }
                if self.turn.roll_number != self.turn.roll_budget() {
                    return Err(Error::RollsNotUsedUp(self.turn.roll_budget()));
                }
                for (i, &tile_ref) in flip.iter().enumerate() {
                    if !flippable[i] {
                        return Err(Error::NotFlippable(tile_ref));
                    }
                }
                Ok(())
            }
            Action::Place { space } => {
                if self.phase != Phase::Rolling {
                    return wrong_phase();
                }
                if !space.is_valid() {
                    return Err(Error::NoSuchSpace(*space));
                }
                if player.field.is_covered(*space) {
                    return Err(Error::SpaceCovered(*space));
                }
                if !self.dice_summary().matches(*space, &self.options) {
                    return Err(Error::NoMatch(*space));
                }
                Ok(())
            }
            Action::PlaceAbove {} => {
                if self.phase != Phase::Rolling {
                    return wrong_phase();
                }
                if self.options.above_placement == AbovePlacement::WhenNoMatch
                    && self.has_legal_space()
                {
                    return Err(Error::MustPlaceOnField);
                }
                Ok(())
            }
            Action::ClaimBonus {
                row,
                col,
                height,
                width,
            } => {
                if self.phase != Phase::AfterPlacement {
                    return wrong_phase();
                }
                if !matches!((height, width), (2, 3) | (3, 2)) {
                    return Err(Error::BadAreaShape {
                        height: *height,
                        width: *width,
                    });
                }
                if *row < 1
                    || *col < 1
                    || *row > i64::from(ROWS) + 1 - height
                    || *col > i64::from(COLS) + 1 - width
                {
                    return Err(Error::AreaOffField {
                        row: *row,
                        col: *col,
                    });
                }
                let limit = self.options.claim_limit();
                if self.turn.bonus_claims >= limit {
                    return Err(Error::ClaimLimitReached(limit));
                }
                if self.bonus_supply == 0 {
                    return Err(Error::BonusSupplyEmpty);
                }
                let area = BonusTile {
                    row: *row as u8,
                    col: *col as u8,
                    height: *height as u8,
                    width: *width as u8,
                };
                for space in area.spaces() {
                    match player.field.cell(space) {
                        Cell::Empty => return Err(Error::AreaNotCovered),
                        Cell::Covered {
                            bonus: Some(id), ..
                        } => return Err(Error::AreaOverlapsBonus(id)),
                        Cell::Covered { bonus: None, .. } => {}
                    }
                }
                Ok(())
            }
            Action::EndTurn {} => match self.phase {
                Phase::AfterPlacement => Ok(()),
                _ => wrong_phase(),
            },
            Action::StartNextRound { multicolor } => {
                let Phase::SoloBetweenRounds { eligible } = &self.phase else {
                    return wrong_phase();
                };
                match multicolor {
                    Some(space) if !space.is_valid() => Err(Error::NoSuchSpace(*space)),
                    Some(space) if !eligible.contains(space) => Err(Error::NotEligible(*space)),
                    Some(_) => Ok(()),
                    None if !eligible.is_empty() => Err(Error::MulticolorRequired),
                    None => Ok(()),
                }
            }
        }
    }

    fn roll_dice(&mut self, indices: &[usize], rng: &mut GameRng) -> Event {
        let mut rolled = Vec::with_capacity(indices.len());
        for &i in indices {
            let value = rng.roll_d6();
            self.turn.dice[i] = Die {
                value: Some(value),
                on_bonus: None,
            };
            rolled.push(RolledDie {
                die: i as u8,
                value,
            });
        }
        self.turn.roll_number += 1;
        self.phase = Phase::Rolling;
        Event::Rolled {
            seat: self.active,
            roll_number: self.turn.roll_number,
            rolled,
            dice: self
                .turn
                .dice
                .iter()
                .map(|die| die.value.unwrap_or(0))
                .collect(),
        }
    }

    /// TurnStart (§3.2): fresh dice; wheelbarrow dice first if the player has bonus tiles.
    pub(crate) fn start_turn(&mut self, events: &mut Vec<Event>) {
        let dice_count = self.active_player().dice_count;
        self.turn = Turn::new(dice_count);
        let k = self.wheelbarrow_dice();
        self.phase = if k > 0 {
            Phase::AwaitBonusDice
        } else {
            Phase::AwaitFirstRoll
        };
        events.push(Event::TurnStarted {
            seat: self.active,
            turn_number: self.turn_number,
            dice_count: dice_count as u8,
            wheelbarrow_dice: k as u8,
        });
    }

    /// §6.1: the win check right after a placement, before any claim.
    fn check_win(&mut self, events: &mut Vec<Event>) {
        let seat = self.active;
        let Some(condition) = self.players[seat.index()].field.win() else {
            self.phase = Phase::AfterPlacement;
            return;
        };
        if self.solo.is_some() {
            self.end_solo_round(condition, events);
        } else {
            self.result = Some(GameResult::Winner { seat, condition });
            self.phase = Phase::GameOver;
            events.push(Event::GameWon { seat, condition });
        }
    }

    /// §6.3 RoundEnd.
    fn end_solo_round(&mut self, condition: WinCondition, events: &mut Vec<Event>) {
        let score = self.players[0].tiles_total() as u32;
        let field = self.players[0].field;
        let Some(solo) = self.solo.as_mut() else {
            return;
        };
        solo.round_scores.push(score);
        let round = solo.round;
        if round >= 3 {
            let total = solo.round_scores.iter().sum();
            let tier = SoloTier::of(total);
            let result = GameResult::SoloResult {
                round_scores: solo.round_scores.clone(),
                total,
                tier,
            };
            events.push(Event::RoundEnded {
                round,
                score,
                condition,
                eligible: Vec::new(),
            });
            events.push(Event::SoloFinished {
                result: result.clone(),
                tier,
            });
            self.result = Some(result);
            self.phase = Phase::GameOver;
            return;
        }
        // D23: after round 1 the covered row-4 spaces, after round 2 the covered row-5 ones.
        let eligible_row = if round == 1 { 4 } else { 5 };
        let eligible: Vec<Space> = (1..=COLS)
            .map(|col| Space::new(eligible_row, col))
            .filter(|&space| field.is_covered(space))
            .collect();
        events.push(Event::RoundEnded {
            round,
            score,
            condition,
            eligible: eligible.clone(),
        });
        self.phase = Phase::SoloBetweenRounds { eligible };
    }

    /// §6.3 `start_next_round`.
    fn start_next_round(&mut self, multicolor: Option<Space>, events: &mut Vec<Event>) {
        let old_field = self.players[0].field;
        let Some(solo) = self.solo.as_mut() else {
            return;
        };
        solo.round += 1;
        let round = solo.round;
        let mut player = Player::new(Board::Back, &self.options);
        if round >= 3 {
            // The row-4 multicoloured tile stays, turned tulip side up again.
            for col in 1..=COLS {
                let space = Space::new(4, col);
                if let Cell::Covered {
                    tile:
                        Tile {
                            kind: TileKind::Multicolor,
                            ..
                        },
                    ..
                } = old_field.cell(space)
                {
                    *player.field.cell_mut(space) = Cell::Covered {
                        tile: Tile::MULTICOLOR,
                        bonus: None,
                    };
                }
            }
        }
        if let Some(space) = multicolor {
            *player.field.cell_mut(space) = Cell::Covered {
                tile: Tile::MULTICOLOR,
                bonus: None,
            };
        }
        player.dice_count = player.field.dice_for();
        self.players[0] = player;
        self.bonus_supply = self.options.bonus_supply;
        self.turn_number = 1;
        events.push(Event::RoundStarted { round, multicolor });
        self.start_turn(events);
    }
}
