//! Card and cell identities (§1.1, §1.2) and their attributes: type, colours, `shares`.

use serde::{Deserialize, Serialize};

/// Every Portfolio card, in catalogue order: the 25 catalogue tulips, then the
/// special cards, the weeds and the sacks. The JSON form is the card's id (`"L-PuR"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::Card))]
#[repr(u8)]
pub enum Card {
    /// The L-R tulip (Portfolio card).
    #[serde(rename = "L-R")]
    LR,
    /// The L-Pk tulip (Portfolio card).
    #[serde(rename = "L-Pk")]
    LPk,
    /// The L-O tulip (Portfolio card).
    #[serde(rename = "L-O")]
    LO,
    /// The L-Pu tulip (Portfolio card).
    #[serde(rename = "L-Pu")]
    LPu,
    /// The L-Y tulip (Portfolio card).
    #[serde(rename = "L-Y")]
    LY,
    /// The L-PuR tulip (Portfolio card).
    #[serde(rename = "L-PuR")]
    LPuR,
    /// The S-R tulip (Portfolio card).
    #[serde(rename = "S-R")]
    SR,
    /// The S-Pk tulip (Portfolio card).
    #[serde(rename = "S-Pk")]
    SPk,
    /// The S-O tulip (Portfolio card).
    #[serde(rename = "S-O")]
    SO,
    /// The S-Pu tulip (Portfolio card).
    #[serde(rename = "S-Pu")]
    SPu,
    /// The S-Y tulip (Portfolio card).
    #[serde(rename = "S-Y")]
    SY,
    /// The S-OPk tulip (Portfolio card).
    #[serde(rename = "S-OPk")]
    SOPk,
    /// The P-R tulip (Portfolio card).
    #[serde(rename = "P-R")]
    PR,
    /// The P-Pk tulip (Portfolio card).
    #[serde(rename = "P-Pk")]
    PPk,
    /// The P-O tulip (Portfolio card).
    #[serde(rename = "P-O")]
    PO,
    /// The P-Pu tulip (Portfolio card).
    #[serde(rename = "P-Pu")]
    PPu,
    /// The P-Y tulip (Portfolio card).
    #[serde(rename = "P-Y")]
    PY,
    /// The P-YR tulip (Portfolio card).
    #[serde(rename = "P-YR")]
    PYR,
    /// The D-R tulip (Portfolio card).
    #[serde(rename = "D-R")]
    DR,
    /// The D-Pk tulip (Portfolio card).
    #[serde(rename = "D-Pk")]
    DPk,
    /// The D-O tulip (Portfolio card).
    #[serde(rename = "D-O")]
    DO,
    /// The D-Pu tulip (Portfolio card).
    #[serde(rename = "D-Pu")]
    DPu,
    /// The D-Y tulip (Portfolio card).
    #[serde(rename = "D-Y")]
    DY,
    /// The D-PkPu tulip (Portfolio card).
    #[serde(rename = "D-PkPu")]
    DPkPu,
    /// The K-OY tulip (Portfolio card).
    #[serde(rename = "K-OY")]
    KOY,
    /// Semper Augustus (§1.2, D-20).
    #[serde(rename = "SEMPER")]
    Semper,
    /// Queen of the Night (§1.2, D-21).
    #[serde(rename = "QUEEN")]
    Queen,
    /// The wild Bouquet (§1.2, D-22).
    #[serde(rename = "BOUQUET")]
    Bouquet,
    /// A weed (non-tulip, D-23).
    #[serde(rename = "WEED-1")]
    Weed1,
    /// A weed (non-tulip, D-23).
    #[serde(rename = "WEED-2")]
    Weed2,
    /// Empty sack number 1 (non-tulip, D-24).
    #[serde(rename = "SACK-1")]
    Sack1,
    /// Empty sack number 2 (non-tulip, D-24).
    #[serde(rename = "SACK-2")]
    Sack2,
    /// Empty sack number 3 (non-tulip, D-24).
    #[serde(rename = "SACK-3")]
    Sack3,
    /// Empty sack number 4 (non-tulip, D-24).
    #[serde(rename = "SACK-4")]
    Sack4,
    /// Empty sack number 5 (non-tulip, D-24).
    #[serde(rename = "SACK-5")]
    Sack5,
    /// Empty sack number 6 (non-tulip, D-24).
    #[serde(rename = "SACK-6")]
    Sack6,
    /// Empty sack number 7 (non-tulip, D-24).
    #[serde(rename = "SACK-7")]
    Sack7,
    /// Empty sack number 8 (non-tulip, D-24).
    #[serde(rename = "SACK-8")]
    Sack8,
    /// Empty sack number 9 (non-tulip, D-24).
    #[serde(rename = "SACK-9")]
    Sack9,
    /// Empty sack number 10 (non-tulip, D-24).
    #[serde(rename = "SACK-10")]
    Sack10,
}

/// Every Portfolio card in catalogue order; `ALL_CARDS[c as usize] == c`.
pub const ALL_CARDS: [Card; 40] = [
    Card::LR,
    Card::LPk,
    Card::LO,
    Card::LPu,
    Card::LY,
    Card::LPuR,
    Card::SR,
    Card::SPk,
    Card::SO,
    Card::SPu,
    Card::SY,
    Card::SOPk,
    Card::PR,
    Card::PPk,
    Card::PO,
    Card::PPu,
    Card::PY,
    Card::PYR,
    Card::DR,
    Card::DPk,
    Card::DO,
    Card::DPu,
    Card::DY,
    Card::DPkPu,
    Card::KOY,
    Card::Semper,
    Card::Queen,
    Card::Bouquet,
    Card::Weed1,
    Card::Weed2,
    Card::Sack1,
    Card::Sack2,
    Card::Sack3,
    Card::Sack4,
    Card::Sack5,
    Card::Sack6,
    Card::Sack7,
    Card::Sack8,
    Card::Sack9,
    Card::Sack10,
];

/// A Market card, which is also the id of its grid cell. The JSON form is `"M:<id>"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::Cell))]
#[repr(u8)]
pub enum Cell {
    /// The Market card M:L-R.
    #[serde(rename = "M:L-R")]
    LR,
    /// The Market card M:L-Pk.
    #[serde(rename = "M:L-Pk")]
    LPk,
    /// The Market card M:L-O.
    #[serde(rename = "M:L-O")]
    LO,
    /// The Market card M:L-Pu.
    #[serde(rename = "M:L-Pu")]
    LPu,
    /// The Market card M:L-Y.
    #[serde(rename = "M:L-Y")]
    LY,
    /// The Market card M:L-PuR.
    #[serde(rename = "M:L-PuR")]
    LPuR,
    /// The Market card M:S-R.
    #[serde(rename = "M:S-R")]
    SR,
    /// The Market card M:S-Pk.
    #[serde(rename = "M:S-Pk")]
    SPk,
    /// The Market card M:S-O.
    #[serde(rename = "M:S-O")]
    SO,
    /// The Market card M:S-Pu.
    #[serde(rename = "M:S-Pu")]
    SPu,
    /// The Market card M:S-Y.
    #[serde(rename = "M:S-Y")]
    SY,
    /// The Market card M:S-OPk.
    #[serde(rename = "M:S-OPk")]
    SOPk,
    /// The Market card M:P-R.
    #[serde(rename = "M:P-R")]
    PR,
    /// The Market card M:P-Pk.
    #[serde(rename = "M:P-Pk")]
    PPk,
    /// The Market card M:P-O.
    #[serde(rename = "M:P-O")]
    PO,
    /// The Market card M:P-Pu.
    #[serde(rename = "M:P-Pu")]
    PPu,
    /// The Market card M:P-Y.
    #[serde(rename = "M:P-Y")]
    PY,
    /// The Market card M:P-YR.
    #[serde(rename = "M:P-YR")]
    PYR,
    /// The Market card M:D-R.
    #[serde(rename = "M:D-R")]
    DR,
    /// The Market card M:D-Pk.
    #[serde(rename = "M:D-Pk")]
    DPk,
    /// The Market card M:D-O.
    #[serde(rename = "M:D-O")]
    DO,
    /// The Market card M:D-Pu.
    #[serde(rename = "M:D-Pu")]
    DPu,
    /// The Market card M:D-Y.
    #[serde(rename = "M:D-Y")]
    DY,
    /// The Market card M:D-PkPu.
    #[serde(rename = "M:D-PkPu")]
    DPkPu,
    /// The Market card M:K-OY.
    #[serde(rename = "M:K-OY")]
    KOY,
}

/// Every Market card in catalogue order; `ALL_CELLS[c as usize] == c`.
pub const ALL_CELLS: [Cell; 25] = [
    Cell::LR,
    Cell::LPk,
    Cell::LO,
    Cell::LPu,
    Cell::LY,
    Cell::LPuR,
    Cell::SR,
    Cell::SPk,
    Cell::SO,
    Cell::SPu,
    Cell::SY,
    Cell::SOPk,
    Cell::PR,
    Cell::PPk,
    Cell::PO,
    Cell::PPu,
    Cell::PY,
    Cell::PYR,
    Cell::DR,
    Cell::DPk,
    Cell::DO,
    Cell::DPu,
    Cell::DY,
    Cell::DPkPu,
    Cell::KOY,
];

/// The spec id of each card, by catalogue index.
pub const CARD_IDS: [&str; 40] = [
    "L-R", "L-Pk", "L-O", "L-Pu", "L-Y", "L-PuR", "S-R", "S-Pk", "S-O", "S-Pu", "S-Y", "S-OPk",
    "P-R", "P-Pk", "P-O", "P-Pu", "P-Y", "P-YR", "D-R", "D-Pk", "D-O", "D-Pu", "D-Y", "D-PkPu",
    "K-OY", "SEMPER", "QUEEN", "BOUQUET", "WEED-1", "WEED-2", "SACK-1", "SACK-2", "SACK-3",
    "SACK-4", "SACK-5", "SACK-6", "SACK-7", "SACK-8", "SACK-9", "SACK-10",
];

/// A tulip colour (§1.1), as a bit in a colour mask.
pub mod colour {
    /// Red.
    pub const RED: u8 = 1;
    /// Pink.
    pub const PINK: u8 = 2;
    /// Orange.
    pub const ORANGE: u8 = 4;
    /// Purple.
    pub const PURPLE: u8 = 8;
    /// Yellow.
    pub const YELLOW: u8 = 16;
    /// The five colours in catalogue order.
    pub const ALL: [u8; 5] = [RED, PINK, ORANGE, PURPLE, YELLOW];
}

/// The tulip types (§1.1): Lily, Single, Parrot, Double, Kaufmanniana, as indices 0..5.
pub const TYPE_COUNT: u8 = 5;

/// The colour mask of each bicolor column, by type row (Lily, Single, Parrot, Double).
const BICOLORS: [u8; 4] = [
    colour::PURPLE | colour::RED,
    colour::ORANGE | colour::PINK,
    colour::YELLOW | colour::RED,
    colour::PINK | colour::PURPLE,
];

impl Card {
    /// The catalogue index (0..40).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The card's spec id, e.g. `"L-PuR"`.
    pub fn id(self) -> &'static str {
        CARD_IDS[self.index()]
    }

    /// One of the 25 catalogue tulips (which have a Market card).
    pub fn is_catalogue(self) -> bool {
        self.index() < 25
    }

    /// A tulip card: the 25 catalogue tulips, SEMPER, QUEEN and BOUQUET.
    pub fn is_tulip(self) -> bool {
        self.index() < 28
    }

    /// A WEED.
    pub fn is_weed(self) -> bool {
        matches!(self, Card::Weed1 | Card::Weed2)
    }

    /// An empty SACK.
    pub fn is_sack(self) -> bool {
        self.index() >= 30
    }

    /// The Market card of a catalogue tulip.
    pub fn cell(self) -> Option<Cell> {
        self.is_catalogue().then(|| ALL_CELLS[self.index()])
    }

    /// The SACK with number `n` (1..=10).
    pub fn sack(n: usize) -> Card {
        ALL_CARDS[29 + n]
    }
}

impl Cell {
    /// The catalogue index (0..25).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The Portfolio card with the same identity.
    pub fn card(self) -> Card {
        ALL_CARDS[self.index()]
    }

    /// The tulip type (0 Lily, 1 Single, 2 Parrot, 3 Double, 4 Kaufmanniana).
    pub fn tulip_type(self) -> u8 {
        (self.index() / 6) as u8
    }

    /// The colour mask (one or two bits of [`colour`]).
    pub fn colours(self) -> u8 {
        let i = self.index();
        if i == 24 {
            return colour::ORANGE | colour::YELLOW;
        }
        let column = i % 6;
        if column < 5 {
            colour::ALL[column]
        } else {
            BICOLORS[i / 6]
        }
    }

    /// Whether the tulip has two colours.
    pub fn is_bicolor(self) -> bool {
        self.colours().count_ones() == 2
    }

    /// §1.1 `shares(a, b)`: same type or a common colour. K-OY shares only through its colours,
    /// which the type test gives for free since it is the only Kaufmanniana.
    pub fn shares(self, other: Cell) -> bool {
        self != other
            && (self.tulip_type() == other.tulip_type() || self.colours() & other.colours() != 0)
    }
}

impl std::fmt::Display for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "M:{}", self.card().id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_counts() {
        for (i, card) in ALL_CARDS.iter().enumerate() {
            assert_eq!(card.index(), i);
        }
        for c in colour::ALL {
            assert_eq!(
                ALL_CELLS
                    .iter()
                    .filter(|cell| cell.colours() & c != 0)
                    .count(),
                6
            );
        }
        assert_eq!(ALL_CELLS.iter().filter(|cell| cell.is_bicolor()).count(), 5);
        assert_eq!(serde_json::to_string(&Card::LPuR).unwrap(), "\"L-PuR\"");
        assert_eq!(serde_json::to_string(&Cell::KOY).unwrap(), "\"M:K-OY\"");
        assert_eq!(Card::sack(1), Card::Sack1);
        assert_eq!(Card::sack(10), Card::Sack10);
    }
}
