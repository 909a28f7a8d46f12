//! The price track (§3.7) and the Market Response (§3.6 C1).

use crate::cards::{Colour, EventEffect};
use serde::{Deserialize, Serialize};

/// The level (1..=7, i.e. I..VII) of each colour's price marker. The three levels are
/// always distinct.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::Track))]
pub struct Track {
    /// The red marker's level.
    #[serde(rename = "R")]
    pub red: u8,
    /// The white marker's level.
    #[serde(rename = "W")]
    pub white: u8,
    /// The yellow marker's level.
    #[serde(rename = "Y")]
    pub yellow: u8,
}

/// The lowest level of the track.
pub const MIN_LEVEL: i8 = 1;
/// The highest level of the track.
pub const MAX_LEVEL: i8 = 7;

impl Track {
    /// A track with red on `red`, white on `white` and yellow on `yellow`.
    pub fn new(red: u8, white: u8, yellow: u8) -> Track {
        Track { red, white, yellow }
    }

    /// The level of `colour`'s marker.
    pub fn level(&self, colour: Colour) -> u8 {
        match colour {
            Colour::R => self.red,
            Colour::W => self.white,
            Colour::Y => self.yellow,
        }
    }

    fn set(&mut self, colour: Colour, level: u8) {
        match colour {
            Colour::R => self.red = level,
            Colour::W => self.white = level,
            Colour::Y => self.yellow = level,
        }
    }

    fn occupied_by_other(&self, colour: Colour, level: i8) -> bool {
        Colour::ALL
            .iter()
            .any(|&other| other != colour && i8::try_from(self.level(other)).ok() == Some(level))
    }

    /// The colour whose marker is on the lowest level (unique: levels are distinct).
    pub fn lowest(&self) -> Colour {
        *Colour::ALL
            .iter()
            .min_by_key(|&&colour| self.level(colour))
            .unwrap_or(&Colour::R)
    }

    /// The colour whose marker is on the highest level.
    pub fn highest(&self) -> Colour {
        *Colour::ALL
            .iter()
            .max_by_key(|&&colour| self.level(colour))
            .unwrap_or(&Colour::R)
    }

    /// Moves one marker by `delta` (≠ 0) with the collision and boundary rules of §3.7:
    /// skip forward over occupied spaces; at the edge of the track fall back to the closest
    /// empty space between the target and the origin; otherwise stay.
    pub fn move_marker(&mut self, colour: Colour, delta: i8) {
        if delta == 0 {
            return;
        }
        let from = self.level(colour) as i8;
        let step = delta.signum();
        let target = (from + delta).clamp(MIN_LEVEL, MAX_LEVEL);
        // 1. Forward skip from the (clamped) target.
        let mut level = target;
        while (MIN_LEVEL..=MAX_LEVEL).contains(&level) && level != from {
            if !self.occupied_by_other(colour, level) {
                self.set(colour, level as u8);
                return;
            }
            level += step;
        }
        // 2. Closest fallback: the spaces strictly between the origin and the target,
        // starting next to the target and walking back towards the origin.
        let mut level = target - step;
        while (level - from) * step > 0 {
            if !self.occupied_by_other(colour, level) {
                self.set(colour, level as u8);
                return;
            }
            level -= step;
        }
        // 3. Stay.
    }

    /// Moves a group of markers by the same `delta`, leading marker first (the higher one
    /// when rising, the lower one when falling), each with [`Track::move_marker`] on the
    /// positions as updated so far (§3.7, FAQ Q3).
    pub fn group_move(&mut self, colours: &[Colour], delta: i8) {
        let mut order: Vec<Colour> = colours.to_vec();
        order.sort_by_key(|&colour| self.level(colour));
        if delta > 0 {
            order.reverse();
        }
        for colour in order {
            self.move_marker(colour, delta);
        }
    }

    /// Applies a market event's movement (§3.3 E1). `Bust` moves nothing.
    pub fn apply_event(&mut self, effect: EventEffect) {
        match effect {
            EventEffect::Bust => {}
            EventEffect::Surge => self.move_marker(self.lowest(), 2),
            EventEffect::Rise(colour) => self.move_marker(colour, 1),
            EventEffect::Crash => self.move_marker(self.highest(), -2),
        }
    }

    /// The Market Response (§3.6 C1) for the given card counts per colour (R, W, Y): the
    /// most common colour(s) fall by one, then the rarest rise by one; nothing moves when
    /// all three counts are equal.
    pub fn market_response(&mut self, counts: [usize; 3]) {
        let max = counts.iter().copied().max().unwrap_or(0);
        let min = counts.iter().copied().min().unwrap_or(0);
        if max == min {
            return;
        }
        let down: Vec<Colour> = Colour::ALL
            .into_iter()
            .filter(|colour| counts[colour.index()] == max)
            .collect();
        self.group_move(&down, -1);
        let up: Vec<Colour> = Colour::ALL
            .into_iter()
            .filter(|colour| counts[colour.index()] == min)
            .collect();
        self.group_move(&up, 1);
    }

    /// Whether the three markers are on distinct levels within 1..=7.
    pub fn is_valid(&self) -> bool {
        let levels = [self.red, self.white, self.yellow];
        levels.iter().all(|level| (1..=7).contains(level))
            && levels[0] != levels[1]
            && levels[1] != levels[2]
            && levels[0] != levels[2]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_tracks() -> impl Iterator<Item = Track> {
        (1..=7u8).flat_map(|r| {
            (1..=7u8)
                .flat_map(move |w| (1..=7u8).map(move |y| Track::new(r, w, y)))
                .filter(Track::is_valid)
        })
    }

    /// Spec §10 invariant 14: no move ever lands on an occupied space or leaves I..VII.
    #[test]
    fn every_move_keeps_the_track_valid() {
        for track in all_tracks() {
            for colour in Colour::ALL {
                for delta in [-2, -1, 1, 2] {
                    let mut moved = track;
                    moved.move_marker(colour, delta);
                    assert!(moved.is_valid(), "{track:?} {colour:?} {delta}: {moved:?}");
                    // Only the moved marker changes, and never against the direction of travel.
                    for other in Colour::ALL.into_iter().filter(|&other| other != colour) {
                        assert_eq!(moved.level(other), track.level(other));
                    }
                    let shift = i16::from(moved.level(colour)) - i16::from(track.level(colour));
                    assert!(shift == 0 || shift.signum() == i16::from(delta.signum()));
                }
            }
            for counts in [
                [1, 2, 3],
                [3, 3, 1],
                [1, 3, 3],
                [2, 2, 2],
                [5, 0, 5],
                [0, 4, 9],
            ] {
                let mut moved = track;
                moved.market_response(counts);
                assert!(moved.is_valid());
            }
        }
    }
}
