//! The components (spec §1): tulip cards, the price chart, collectors and market events.
//!
//! Tulips and event cards are small integers inside the state and travel as the spec's
//! string ids (`"YA#1"`, `"RISE_R#2"`). Every reconstructed number (A prices at I–II, the
//! collector stacks) is a const table here or an option, never buried in rule code.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// i64 (fl). Signed so that a Bust score can be negative.
pub type Guilders = i64;

/// A tulip colour, which is also the colour of a price marker (§0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::Colour))]
pub enum Colour {
    /// Red.
    R,
    /// White.
    W,
    /// Yellow.
    Y,
}

impl Colour {
    /// The three colours in canonical order R, W, Y.
    pub const ALL: [Colour; 3] = [Colour::R, Colour::W, Colour::Y];

    /// The colour's index in canonical order (R = 0, W = 1, Y = 2).
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A tulip kind: its rank letter plus its variety (§0, §1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::Kind))]
pub enum Kind {
    /// Rank A, the single A variety (2 copies per colour).
    A,
    /// Rank B, first variety (3 copies per colour).
    B1,
    /// Rank B, second variety (3 copies per colour).
    B2,
    /// Rank C, first variety (3 copies per colour).
    C1,
    /// Rank C, second variety (3 copies per colour).
    C2,
    /// Rank C, third variety (3 copies per colour).
    C3,
}

/// A tulip rank: the only thing that matters for the price (§1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::Rank))]
pub enum Rank {
    /// The rarest and dearest rank.
    A,
    /// The middle rank.
    B,
    /// The cheapest rank.
    C,
}

impl Kind {
    /// The six kinds in canonical order.
    pub const ALL: [Kind; 6] = [Kind::A, Kind::B1, Kind::B2, Kind::C1, Kind::C2, Kind::C3];

    /// The rank (letter) of this kind.
    pub fn rank(self) -> Rank {
        match self {
            Kind::A => Rank::A,
            Kind::B1 | Kind::B2 => Rank::B,
            Kind::C1 | Kind::C2 | Kind::C3 => Rank::C,
        }
    }

    /// How many copies of this kind each colour has (§1.2).
    pub fn copies(self) -> u8 {
        if self == Kind::A {
            2
        } else {
            3
        }
    }

    /// Index of the first copy of this kind inside one colour's 17 cards.
    fn offset(self) -> u8 {
        [0, 2, 5, 8, 11, 14][self as usize]
    }
}

/// Cards per colour (§1.2).
pub const CARDS_PER_COLOUR: u8 = 17;
/// Tulip cards in the game (§1.1).
pub const TULIP_COUNT: usize = 51;

/// Every tulip's id, in canonical order (§1.2): serializing a card is a table look-up, not
/// a formatting of its parts.
const TULIP_NAMES: [&str; TULIP_COUNT] = [
    "RA#1", "RA#2", "RB1#1", "RB1#2", "RB1#3", "RB2#1", "RB2#2", "RB2#3", "RC1#1", "RC1#2",
    "RC1#3", "RC2#1", "RC2#2", "RC2#3", "RC3#1", "RC3#2", "RC3#3", "WA#1", "WA#2", "WB1#1",
    "WB1#2", "WB1#3", "WB2#1", "WB2#2", "WB2#3", "WC1#1", "WC1#2", "WC1#3", "WC2#1", "WC2#2",
    "WC2#3", "WC3#1", "WC3#2", "WC3#3", "YA#1", "YA#2", "YB1#1", "YB1#2", "YB1#3", "YB2#1",
    "YB2#2", "YB2#3", "YC1#1", "YC1#2", "YC1#3", "YC2#1", "YC2#2", "YC2#3", "YC3#1", "YC3#2",
    "YC3#3",
];

/// One tulip card. Serialized as its id `<colour><kind>#<copy>`, e.g. `"YB1#2"`; the
/// number inside is its position in the canonical order of §1.2 (R, W, Y; A..C3; copy).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tulip(u8);

impl Tulip {
    /// The card `colour`/`kind`/`copy` (copies count from 1), if it exists.
    pub fn new(colour: Colour, kind: Kind, copy: u8) -> Option<Tulip> {
        (1..=kind.copies())
            .contains(&copy)
            .then(|| Tulip(colour.index() as u8 * CARDS_PER_COLOUR + kind.offset() + copy - 1))
    }

    /// All 51 cards in canonical order (§1.2).
    pub fn all() -> impl Iterator<Item = Tulip> {
        (0..TULIP_COUNT as u8).map(Tulip)
    }

    /// The card's position in canonical order, 0..51.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The card's colour.
    pub fn colour(self) -> Colour {
        Colour::ALL[usize::from(self.0 / CARDS_PER_COLOUR)]
    }

    /// The card's kind.
    pub fn kind(self) -> Kind {
        let within = self.0 % CARDS_PER_COLOUR;
        *Kind::ALL
            .iter()
            .rev()
            .find(|kind| kind.offset() <= within)
            .unwrap_or(&Kind::A)
    }

    /// The card's rank.
    pub fn rank(self) -> Rank {
        self.kind().rank()
    }

    /// The copy number, from 1.
    pub fn copy(self) -> u8 {
        self.0 % CARDS_PER_COLOUR - self.kind().offset() + 1
    }

    /// Parses an id such as `"RA#1"`; `None` if no such card exists.
    pub fn parse(id: &str) -> Option<Tulip> {
        TULIP_NAMES
            .iter()
            .position(|name| *name == id)
            .map(|index| Tulip(index as u8))
    }

    /// The card's id, e.g. `"YB1#2"`.
    pub fn name(self) -> &'static str {
        TULIP_NAMES[self.index()]
    }

    /// The card id as sent on the wire.
    pub fn id(self) -> CardId {
        CardId(self.name().to_owned())
    }
}

impl fmt::Display for Tulip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Tulip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl Serialize for Tulip {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Tulip {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(deserializer)?;
        Tulip::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown tulip card {text:?}")))
    }
}

/// A card id as a client sends it in an action. Kept as text so that an unknown id is the
/// rule error `unknown-card` rather than a malformed request.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::CardId, example = "YA#1"))]
pub struct CardId(pub String);

impl CardId {
    /// The card this id names, if it exists.
    pub fn tulip(&self) -> Option<Tulip> {
        Tulip::parse(&self.0)
    }
}

impl From<Tulip> for CardId {
    fn from(tulip: Tulip) -> CardId {
        tulip.id()
    }
}

impl From<&str> for CardId {
    fn from(text: &str) -> CardId {
        CardId(text.to_string())
    }
}

/// What a market event card does (§1.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventEffect {
    /// The game ends at once (§6.2).
    Bust,
    /// The lowest marker moves +2.
    Surge,
    /// This colour's marker moves +1.
    Rise(Colour),
    /// The highest marker moves −2.
    Crash,
}

const EVENT_NAMES: [&str; 11] = [
    "BUST", "SURGE", "RISE_R#1", "RISE_R#2", "RISE_W#1", "RISE_W#2", "RISE_Y#1", "RISE_Y#2",
    "CRASH#1", "CRASH#2", "CRASH#3",
];

/// One of the 11 market event cards, serialized as its id (`"BUST"`, `"RISE_W#2"`, ...).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EventCard(u8);

impl EventCard {
    /// The Bubble Bust.
    pub const BUST: EventCard = EventCard(0);
    /// The Surge.
    pub const SURGE: EventCard = EventCard(1);

    /// The 10 cards other than `BUST`, in the canonical order of §5.1 (RNG#3).
    pub fn others() -> impl Iterator<Item = EventCard> {
        (1..11).map(EventCard)
    }

    /// All 11 cards.
    pub fn all() -> impl Iterator<Item = EventCard> {
        (0..11).map(EventCard)
    }

    /// `RISE_<colour>#<copy>` (copy 1 or 2).
    pub fn rise(colour: Colour, copy: u8) -> EventCard {
        EventCard(2 + 2 * colour.index() as u8 + (copy.clamp(1, 2) - 1))
    }

    /// `CRASH#<copy>` (copy 1..=3).
    pub fn crash(copy: u8) -> EventCard {
        EventCard(7 + copy.clamp(1, 3))
    }

    /// What the card does.
    pub fn effect(self) -> EventEffect {
        match self.0 {
            0 => EventEffect::Bust,
            1 => EventEffect::Surge,
            2..=7 => EventEffect::Rise(Colour::ALL[usize::from((self.0 - 2) / 2)]),
            _ => EventEffect::Crash,
        }
    }

    /// Parses an id such as `"CRASH#2"`.
    pub fn parse(id: &str) -> Option<EventCard> {
        EVENT_NAMES
            .iter()
            .position(|name| *name == id)
            .map(|index| EventCard(index as u8))
    }
}

impl fmt::Display for EventCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(EVENT_NAMES[usize::from(self.0)])
    }
}

impl fmt::Debug for EventCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl Serialize for EventCard {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(EVENT_NAMES[usize::from(self.0)])
    }
}

impl<'de> Deserialize<'de> for EventCard {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(deserializer)?;
        EventCard::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown event card {text:?}")))
    }
}

#[cfg(feature = "openapi")]
mod schemas {
    use super::{EventCard, Tulip, EVENT_NAMES};
    use std::borrow::Cow;
    use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
    use utoipa::openapi::RefOr;

    impl utoipa::PartialSchema for Tulip {
        fn schema() -> RefOr<Schema> {
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some("^[RWY](A|B1|B2|C1|C2|C3)#[1-3]$"))
                .description(Some("a tulip card id: colour R/W/Y, kind A/B1/B2/C1/C2/C3, '#', copy (A has 2 copies, the others 3)"))
                .examples([serde_json::json!("YA#1")])
                .into()
        }
    }

    impl utoipa::ToSchema for Tulip {
        fn name() -> Cow<'static, str> {
            Cow::Borrowed("tulip_bubble.Tulip")
        }
    }

    impl utoipa::PartialSchema for EventCard {
        fn schema() -> RefOr<Schema> {
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some(EVENT_NAMES))
                .description(Some("a market event card id"))
                .into()
        }
    }

    impl utoipa::ToSchema for EventCard {
        fn name() -> Cow<'static, str> {
            Cow::Borrowed("tulip_bubble.EventCard")
        }
    }
}

/// The price of a tulip of `rank` with its colour's marker on `level` (1..=7), per the chart
/// of §1.3. `a_price_low` is the reconstructed A price at levels I and II.
pub fn price(rank: Rank, level: u8, a_price_low: [i64; 2]) -> i64 {
    let index = usize::from(level.clamp(1, 7) - 1);
    match rank {
        Rank::A if index < 2 => a_price_low[index],
        Rank::A => PRICE_A_HIGH[index - 2],
        Rank::B => PRICE_B[index],
        Rank::C => PRICE_C[index],
    }
}

/// Row A of the chart, levels III..VII (confirmed by the rulebook examples).
pub const PRICE_A_HIGH: [i64; 5] = [15, 20, 26, 33, 40];
/// Row B of the chart, levels I..VII.
pub const PRICE_B: [i64; 7] = [3, 5, 7, 10, 13, 16, 20];
/// Row C of the chart, levels I..VII.
pub const PRICE_C: [i64; 7] = [1, 3, 5, 7, 9, 11, 13];

/// One of the 8 collector cards, serialized as its id (`"SERVANT"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::Collector))]
pub enum Collector {
    /// One colour; kinds exactly A, B1 and B2.
    Nobleman,
    /// One colour; all rank B (repeats allowed).
    Clergyman,
    /// All rank B; three different colours.
    Madame,
    /// One colour; B1, B2 and one rank-C card.
    FairLady,
    /// One colour; kinds exactly C1, C2 and C3.
    Servant,
    /// Three different colours; all the same kind (A/A/A allowed, D-22).
    Scholar,
    /// One colour; all rank C (repeats allowed).
    YoungMan,
    /// All rank C; three different colours.
    TavernOwner,
}

/// The three collector stacks with their bonus and their cards in the canonical order of
/// §5.1 (RNG#5–7). Which collector sits in the +10 and +15 stacks is reconstructed:
/// this table is the single place to change it.
pub const COLLECTOR_STACKS: [(i64, &[Collector]); 3] = [
    (
        10,
        &[
            Collector::Servant,
            Collector::Scholar,
            Collector::YoungMan,
            Collector::TavernOwner,
        ],
    ),
    (
        15,
        &[Collector::Clergyman, Collector::Madame, Collector::FairLady],
    ),
    (20, &[Collector::Nobleman]),
];

impl Collector {
    /// The stack (0 = +10, 1 = +15, 2 = +20) this collector belongs to.
    pub fn stack(self) -> usize {
        COLLECTOR_STACKS
            .iter()
            .position(|(_, cards)| cards.contains(&self))
            .unwrap_or(0)
    }

    /// The bonus paid on top of the market price of the three tulips.
    pub fn bonus(self) -> i64 {
        COLLECTOR_STACKS[self.stack()].0
    }

    /// Whether the three cards satisfy this collector's request (§1.4).
    pub fn accepts(self, cards: [Tulip; 3]) -> bool {
        let colours = cards.map(Tulip::colour);
        let one_colour = colours[0] == colours[1] && colours[1] == colours[2];
        let three_colours =
            colours[0] != colours[1] && colours[1] != colours[2] && colours[0] != colours[2];
        let mut kinds = cards.map(Tulip::kind);
        kinds.sort();
        let all_rank = |rank: Rank| kinds.iter().all(|kind| kind.rank() == rank);
        match self {
            Collector::Nobleman => one_colour && kinds == [Kind::A, Kind::B1, Kind::B2],
            Collector::Clergyman => one_colour && all_rank(Rank::B),
            Collector::Madame => three_colours && all_rank(Rank::B),
            Collector::FairLady => {
                one_colour
                    && kinds[0] == Kind::B1
                    && kinds[1] == Kind::B2
                    && kinds[2].rank() == Rank::C
            }
            Collector::Servant => one_colour && kinds == [Kind::C1, Kind::C2, Kind::C3],
            Collector::Scholar => three_colours && kinds[0] == kinds[1] && kinds[1] == kinds[2],
            Collector::YoungMan => one_colour && all_rank(Rank::C),
            Collector::TavernOwner => three_colours && all_rank(Rank::C),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tulip_ids_round_trip_in_canonical_order() {
        let ids: Vec<String> = Tulip::all().map(|tulip| tulip.to_string()).collect();
        assert_eq!(ids[0], "RA#1");
        assert_eq!(ids[2], "RB1#1");
        assert_eq!(ids[16], "RC3#3");
        assert_eq!(ids[17], "WA#1");
        assert_eq!(ids[50], "YC3#3");
        for tulip in Tulip::all() {
            // The table agrees with the card's parts: colour letter, kind, copy.
            let parts = format!("{:?}{:?}#{}", tulip.colour(), tulip.kind(), tulip.copy());
            assert_eq!(tulip.name(), parts);
            assert_eq!(serde_json::to_value(tulip).unwrap(), parts.as_str());
            assert_eq!(Tulip::parse(&parts), Some(tulip));
        }
        for bad in ["RA#3", "XA#1", "RB3#1", "RA1", "RA#01", "", "#1"] {
            assert_eq!(Tulip::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn event_ids_and_effects() {
        let names: Vec<String> = EventCard::all().map(|card| card.to_string()).collect();
        assert_eq!(names, EVENT_NAMES);
        assert_eq!(EventCard::rise(Colour::W, 2).to_string(), "RISE_W#2");
        assert_eq!(
            EventCard::rise(Colour::Y, 1).effect(),
            EventEffect::Rise(Colour::Y)
        );
        assert_eq!(EventCard::crash(3).to_string(), "CRASH#3");
        assert_eq!(EventCard::crash(1).effect(), EventEffect::Crash);
    }

    #[test]
    fn price_chart() {
        assert_eq!(price(Rank::A, 3, [6, 10]), 15);
        assert_eq!(price(Rank::A, 4, [6, 10]), 20);
        assert_eq!(price(Rank::A, 1, [6, 10]), 6);
        assert_eq!(price(Rank::A, 2, [8, 12]), 12);
        assert_eq!(price(Rank::B, 7, [6, 10]), 20);
        assert_eq!(price(Rank::C, 2, [6, 10]), 3);
    }

    #[test]
    fn collector_table_has_the_eight_cards() {
        let mut all: Vec<Collector> = COLLECTOR_STACKS
            .iter()
            .flat_map(|(_, cards)| cards.iter().copied())
            .collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 8);
        assert_eq!(Collector::Nobleman.bonus(), 20);
        assert_eq!(Collector::Servant.bonus(), 10);
    }
}
