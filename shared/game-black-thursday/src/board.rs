//! Building geometry (spec §1.2): slots, spaces, down-neighbours and space kinds.

use crate::pieces::{suit_of, Space, Suit};
use crate::state::{BlackThursday, Position, Slot};
use serde::{Deserialize, Serialize};

/// What a space is (derived and public).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "suit", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::SpaceKind))]
pub enum SpaceKind {
    /// A brokerage office (face-down tile).
    Office,
    /// A window of opportunity of this suit.
    Window(Suit),
    /// The window of great opportunity (the pip quadrant) of this suit.
    GreatWindow(Suit),
}

/// The pip quadrant `(dx, dy)` of a face-up tile with this rotation.
pub fn pip_quadrant(rotation: u16) -> (u16, u16) {
    match rotation {
        90 => (1, 0),
        180 => (1, 1),
        270 => (0, 1),
        _ => (0, 0),
    }
}

/// Whether `space` lies in the slot with this origin.
fn in_slot(origin: Space, space: Space) -> bool {
    space.x >= origin.x && space.x < origin.x + 2 && space.y >= origin.y && space.y < origin.y + 2
}

/// The slot id holding `space` among `slots`.
pub fn slot_index(slots: &[Slot], space: Space) -> Option<usize> {
    slots.iter().position(|slot| in_slot(slot.origin, space))
}

/// Checks a layout (spec §1.3): 1..=24 slots, no shared space, no dead end above the
/// ground floor.
pub fn validate_origins(origins: &[Space]) -> Result<(), String> {
    if origins.is_empty() || origins.len() > 24 {
        return Err("a layout needs 1 to 24 slots".into());
    }
    if origins.iter().any(|o| o.x > 1000 || o.y > 1000) {
        return Err("slot origins must be at most 1000".into());
    }
    for (i, a) in origins.iter().enumerate() {
        for b in &origins[i + 1..] {
            if a.x.abs_diff(b.x) < 2 && a.y.abs_diff(b.y) < 2 {
                return Err(format!(
                    "slots at ({},{}) and ({},{}) overlap",
                    a.x, a.y, b.x, b.y
                ));
            }
        }
    }
    let inside = |space: Space| origins.iter().any(|&o| in_slot(o, space));
    let ground = origins.iter().map(|o| o.y + 1).max().unwrap_or(0);
    for origin in origins {
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let space = Space::new(origin.x + dx, origin.y + dy);
            if space.y == ground {
                continue;
            }
            let below = [space.x.wrapping_sub(1), space.x, space.x + 1]
                .into_iter()
                .any(|x| x != u16::MAX && inside(Space::new(x, space.y + 1)));
            if !below {
                return Err(format!(
                    "space ({},{}) has no space below it",
                    space.x, space.y
                ));
            }
        }
    }
    Ok(())
}

impl BlackThursday {
    /// The slot id holding `space`, if `space` is in the building.
    pub fn slot_at(&self, space: Space) -> Option<usize> {
        slot_index(&self.slots, space)
    }

    /// The ground floor row (the largest y of the building).
    pub fn ground_row(&self) -> u16 {
        self.slots.iter().map(|s| s.origin.y + 1).max().unwrap_or(0)
    }

    /// The roof row (the smallest y of the building).
    pub fn roof_row(&self) -> u16 {
        self.slots.iter().map(|s| s.origin.y).min().unwrap_or(0)
    }

    /// Whether `space` is a roof space.
    pub fn is_roof(&self, space: Space) -> bool {
        space.y == self.roof_row() && self.slot_at(space).is_some()
    }

    /// The roof spaces, left to right.
    pub fn roof_spaces(&self) -> Vec<Space> {
        let roof = self.roof_row();
        let mut spaces: Vec<Space> = self
            .slots
            .iter()
            .filter(|s| s.origin.y == roof)
            .flat_map(|s| {
                [
                    Space::new(s.origin.x, roof),
                    Space::new(s.origin.x + 1, roof),
                ]
            })
            .collect();
        spaces.sort();
        spaces
    }

    /// The down-neighbours of `space` that are in the building, left to right.
    pub fn down_neighbours(&self, space: Space) -> Vec<Space> {
        [space.x.wrapping_sub(1), space.x, space.x + 1]
            .into_iter()
            .filter(|&x| x != u16::MAX)
            .map(|x| Space::new(x, space.y + 1))
            .filter(|&s| self.slot_at(s).is_some())
            .collect()
    }

    /// Whether a pawn stands on `space`.
    pub fn occupied(&self, space: Space) -> bool {
        self.players
            .iter()
            .any(|p| p.position == Position::At(space))
    }

    /// Whether a pawn stands on any space of slot `slot`.
    pub fn slot_occupied(&self, slot: usize) -> bool {
        let origin = self.slots[slot].origin;
        self.players.iter().any(|p| match p.position {
            Position::At(space) => in_slot(origin, space),
            _ => false,
        })
    }

    /// The kind of a building space (`None` outside the building).
    pub fn kind(&self, space: Space) -> Option<SpaceKind> {
        let slot = &self.slots[self.slot_at(space)?];
        if !slot.face_up {
            return Some(SpaceKind::Office);
        }
        let suit = suit_of(slot.tile);
        let quadrant = (space.x - slot.origin.x, space.y - slot.origin.y);
        if quadrant == pip_quadrant(slot.rotation.unwrap_or(0)) {
            Some(SpaceKind::GreatWindow(suit))
        } else {
            Some(SpaceKind::Window(suit))
        }
    }

    /// Whether `space` is free and in the building.
    pub fn free(&self, space: Space) -> bool {
        self.slot_at(space).is_some() && !self.occupied(space)
    }
}
