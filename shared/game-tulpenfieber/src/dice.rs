//! Dice matching (§1.2): what a set of dice shows, and whether it meets the requirement
//! printed on a space (the requirement grid is an option).

use crate::board::Space;
use crate::options::Options;

/// What a set of dice shows, precomputed once for matching (§1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct DiceSummary {
    /// `counts[f]` = dice showing face `f` (index 0 unused).
    pub counts: [u8; 7],
    /// Bit `f` set iff some die shows face `f`.
    pub present: u8,
}

impl DiceSummary {
    /// Summarises the values (dice without a value are skipped).
    pub fn of(values: impl IntoIterator<Item = Option<u8>>) -> DiceSummary {
        let mut summary = DiceSummary::default();
        for value in values.into_iter().flatten() {
            if (1..=6).contains(&value) {
                summary.counts[usize::from(value)] += 1;
                summary.present |= 1 << value;
            }
        }
        summary
    }

    /// The largest number of dice showing one face.
    pub fn max_count(&self) -> u8 {
        self.counts.iter().copied().max().unwrap_or(0)
    }

    /// §1.2: whether the dice meet the requirement printed on a valid space, ignoring
    /// occupancy. Includes the wildcard.
    pub fn matches(&self, space: Space, options: &Options) -> bool {
        if self.max_count() >= options.wildcard_threshold {
            return true;
        }
        let row = usize::from(space.row - 1);
        match space.face() {
            Some(face) => self.counts[usize::from(face)] >= options.side_need[row],
            None => options.straight_sets[row].iter().any(|set| {
                let mask = face_mask(set);
                mask & self.present == mask
            }),
        }
    }
}

/// The faces of a set as a bit mask (bit `f` for face `f`).
pub fn face_mask(faces: &[u8]) -> u8 {
    faces
        .iter()
        .filter(|f| (1..=6).contains(*f))
        .fold(0, |mask, f| mask | 1 << f)
}
