//! Seats and sets of seats.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The most seats any game supports; `SeatSet` is a bit mask of this width.
pub const MAX_SEATS: u8 = 16;

/// A seat at the table, 0-based and clockwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Seat(pub u8);

impl Seat {
    /// The seat as an index into per-seat vectors.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The seat to the left (clockwise) at a table of `n_seats`.
    pub fn left(self, n_seats: u8) -> Seat {
        Seat((self.0 + 1) % n_seats)
    }

    /// The seat to the right (anticlockwise) at a table of `n_seats`.
    pub fn right(self, n_seats: u8) -> Seat {
        Seat((self.0 + n_seats - 1) % n_seats)
    }

    /// Every seat of a table of `n_seats`, in seat order.
    pub fn all(n_seats: u8) -> impl Iterator<Item = Seat> {
        (0..n_seats).map(Seat)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// A set of seats. Serialized as an ascending list of seat numbers.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SeatSet(u16);

impl SeatSet {
    /// The empty set.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// A set holding one seat.
    pub fn only(seat: Seat) -> SeatSet {
        SeatSet(1 << seat.0)
    }

    /// Every seat of a table of `n_seats`.
    pub fn all(n_seats: u8) -> SeatSet {
        SeatSet(((1u32 << n_seats) - 1) as u16)
    }

    /// Whether the set holds `seat`.
    pub fn contains(self, seat: Seat) -> bool {
        seat.0 < MAX_SEATS && self.0 & (1 << seat.0) != 0
    }

    /// Adds `seat` to the set.
    pub fn insert(&mut self, seat: Seat) {
        self.0 |= 1 << seat.0;
    }

    /// Removes `seat` from the set.
    pub fn remove(&mut self, seat: Seat) {
        self.0 &= !(1 << seat.0);
    }

    /// The set with `seat` added.
    pub fn with(mut self, seat: Seat) -> SeatSet {
        self.insert(seat);
        self
    }

    /// The set with `seat` removed.
    pub fn without(mut self, seat: Seat) -> SeatSet {
        self.remove(seat);
        self
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of seats in the set.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether every seat of `self` is also in `other`.
    pub fn is_subset(self, other: SeatSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// The seats in ascending order.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..MAX_SEATS)
            .map(Seat)
            .filter(move |seat| self.contains(*seat))
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        let mut set = SeatSet::EMPTY;
        for seat in iter {
            set.insert(seat);
        }
        set
    }
}

impl fmt::Debug for SeatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|seat| seat.0))
            .finish()
    }
}

impl Serialize for SeatSet {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for SeatSet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let seats = Vec::<u8>::deserialize(deserializer)?;
        let mut set = SeatSet::EMPTY;
        for seat in seats {
            if seat >= MAX_SEATS {
                return Err(serde::de::Error::custom(format!(
                    "seat {seat} is out of range"
                )));
            }
            set.insert(Seat(seat));
        }
        Ok(set)
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for SeatSet {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ArrayBuilder::new()
            .items(
                utoipa::openapi::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::Integer)
                    .minimum(Some(0))
                    .maximum(Some(MAX_SEATS - 1)),
            )
            .description(Some("a set of seats, as ascending 0-based seat numbers"))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for SeatSet {}

/// Who is looking at a game: one seat, or a spectator who sees only public information.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// The player in this seat.
    Seat(Seat),
    /// Anyone without a seat (including the game's admin).
    Spectator,
}

impl Viewer {
    /// The viewer's seat, if any.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn left_and_right_wrap_around_the_table() {
        assert_eq!(Seat(3).left(4), Seat(0));
        assert_eq!(Seat(0).right(4), Seat(3));
        assert_eq!(Seat(1).right(4), Seat(0));
    }

    #[test]
    fn seat_set_serializes_as_sorted_list() {
        let set: SeatSet = [Seat(3), Seat(0)].into_iter().collect();
        assert_eq!(serde_json::to_string(&set).unwrap(), "[0,3]");
        let back: SeatSet = serde_json::from_str("[3,0]").unwrap();
        assert_eq!(back, set);
        assert!(serde_json::from_str::<SeatSet>("[16]").is_err());
        assert_eq!(SeatSet::all(5).len(), 5);
        assert!(SeatSet::only(Seat(2)).is_subset(SeatSet::all(3)));
        assert!(!SeatSet::only(Seat(3)).is_subset(SeatSet::all(3)));
    }
}
