//! Options (§7.2): every configurable decision of the spec. `Default` is the standard game.

use serde::{Deserialize, Serialize};

/// One row of the round table: ripple value, ripple (manipulation) cost, base limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::RoundRow))]
#[serde(deny_unknown_fields)]
pub struct RoundRow {
    /// RV(r): boom size, ripple size and the investment cost unit.
    pub rv: u32,
    /// RC(r): the fee of one MoveCrisis.
    pub rc: u32,
    /// L(r): the base portfolio limit.
    pub limit: u32,
}

/// One investment option: cost = `cost_rv * RV(r)`, limit = `L(r) + limit_bonus`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::InvestmentOption))]
#[serde(deny_unknown_fields)]
pub struct InvestmentOption {
    /// Lower-case snake_case name, unique in the list (e.g. `"broker"`).
    pub name: String,
    /// Cost in multiples of RV(r).
    pub cost_rv: u32,
    /// Added to L(r) for the round.
    pub limit_bonus: u32,
}

/// The complete-portfolio bonus table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::BonusTable))]
#[serde(default, deny_unknown_fields)]
pub struct BonusTable {
    /// Same colour ×4, ×5, ×6.
    pub colour: [u32; 3],
    /// Same type ×4, ×5, ×6.
    pub tulip_type: [u32; 3],
    /// Bicolors ×4, ×5.
    pub bicolor: [u32; 2],
    /// Three pairs.
    pub three_pairs: u32,
}

impl BonusTable {
    /// The rules-v1 table (§1.7 of the spec).
    pub const V1: BonusTable = BonusTable {
        colour: [10, 20, 30],
        tulip_type: [10, 20, 30],
        bicolor: [20, 35],
        three_pairs: 15,
    };
}

impl Default for BonusTable {
    /// The standard (rules-v2) table (docs decision 11): no ×4 pattern, colour ×5 / ×6, type ×6 only.
    fn default() -> Self {
        BonusTable {
            colour: [0, 25, 40],
            tulip_type: [0, 0, 30],
            bicolor: [0, 0],
            three_pairs: 15,
        }
    }
}

/// How the SEMPER card is valued.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::SemperValue))]
#[serde(rename_all = "snake_case")]
pub enum SemperValue {
    /// The highest token count among non-crisis cells (default).
    #[default]
    MaxMarket,
    /// A fixed value.
    Fixed(u32),
}

/// The minimum declaration of a seller re-offering after its buyer's bankruptcy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::ReofferMin))]
#[serde(rename_all = "snake_case")]
pub enum ReofferMin {
    /// At least RV (default).
    #[default]
    Rv,
    /// At least RV + 1.
    RvPlusOne,
}

/// Which hand-growth rules apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::PortfolioRules))]
#[serde(rename_all = "snake_case")]
pub enum PortfolioRules {
    /// Rules version 1: hands grow only by fp's final purchase (the legacy game).
    V1,
    /// Rules version 2 (default for new games): at every round start, before Phase 1, each
    /// survivor in ord draws one Portfolio card.
    #[default]
    V2,
}

impl PortfolioRules {
    fn is_v1(&self) -> bool {
        *self == PortfolioRules::V1
    }
}

/// Game options. Unknown fields are rejected; missing ones take the standard value.
//
// (Not in the contract, which shows the doc comment above to integrators.) One exception is
// kept for recorded games: an object that spells out every rules-v1 field (`V1_FIELDS`) but
// has no `portfolio_rules` was written by the rules-v1 code (a stored state or a stored,
// normalised options object) and reads as `portfolio_rules: "v1"`. `"v1"` is never written
// out, so a v1 game serialises exactly as it did under rules v1.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::Options))]
#[serde(remote = "Self", default, deny_unknown_fields)]
pub struct Options {
    /// Allow the 2-player variant.
    pub allow_two_players: bool,
    /// The first player's seat; null picks one at random (from the game's seed).
    pub first_player: Option<u8>,
    /// Each seat's starting money.
    pub starting_purse: u32,
    /// RV, RC and L for rounds 1..5 (exactly 5 rows).
    pub round_table: Vec<RoundRow>,
    /// The investment options; must contain a cost-0 option.
    pub investment_options: Vec<InvestmentOption>,
    /// Complete-portfolio bonuses.
    pub bonus_table: BonusTable,
    /// Points added per WEED held at final scoring (negative: a penalty; default −5).
    pub weed_penalty: i64,
    /// Points added per SACK held at final scoring (default 0).
    pub sack_penalty: i64,
    /// How many patterns one hand may score (1..=3); above 1 they must use disjoint cards.
    pub max_bonuses_per_player: u8,
    /// Three pairs need three pairwise distinct shared attributes.
    pub three_pairs_distinct: bool,
    /// How SEMPER is valued.
    pub semper_value: SemperValue,
    /// QUEEN's value per crisis cell.
    pub queen_per_crisis: u32,
    /// BOUQUET's market value.
    pub bouquet_value: u32,
    /// true: an accuser turned seller declares at least RV + 1; false: at least RV.
    pub post_accusation_min_strict: bool,
    /// The minimum of a re-offer after the buyer's bankruptcy.
    pub reoffer_min: ReofferMin,
    /// true: a cell's tokens go to the bank when a crisis arrives; false: they stay, inert.
    pub crisis_arrival_wipes: bool,
    /// true: a matching neighbour in crisis still gives the new card RV (receiving nothing).
    pub crisis_neighbour_booms: bool,
    /// true: SACKs never enter the Portfolio deck; they return to the supply.
    pub sacks_to_supply: bool,
    /// true: cash counts in the final score.
    pub score_includes_cash: bool,
    /// true: after a collapse, tie-break key 2 uses the market values of the final grid.
    pub collapse_tiebreak_precollapse_values: bool,
    /// true: the engine plays any action that is the only legal one (never a reveal prompt).
    pub auto_single_choice: bool,
    /// `"v2"` (default): every survivor draws one card at each round start; `"v1"`: the
    /// legacy growth (only fp's final purchase). Not written out when v1 (see above).
    #[serde(skip_serializing_if = "PortfolioRules::is_v1")]
    pub portfolio_rules: PortfolioRules,
}

/// Every field of the rules-v1 options object, as the v1 code serialised it.
pub const V1_FIELDS: [&str; 21] = [
    "allow_two_players",
    "first_player",
    "starting_purse",
    "round_table",
    "investment_options",
    "bonus_table",
    "weed_penalty",
    "sack_penalty",
    "max_bonuses_per_player",
    "three_pairs_distinct",
    "semper_value",
    "queen_per_crisis",
    "bouquet_value",
    "post_accusation_min_strict",
    "reoffer_min",
    "crisis_arrival_wipes",
    "crisis_neighbour_booms",
    "sacks_to_supply",
    "score_includes_cash",
    "collapse_tiebreak_precollapse_values",
    "auto_single_choice",
];

impl Serialize for Options {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Options::serialize(self, serializer)
    }
}

impl<'de> Deserialize<'de> for Options {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let mut value = serde_json::Value::deserialize(deserializer)?;
        if let serde_json::Value::Object(map) = &mut value {
            if !map.contains_key("portfolio_rules")
                && V1_FIELDS.iter().all(|f| map.contains_key(*f))
            {
                map.insert("portfolio_rules".into(), "v1".into());
            }
        }
        Options::deserialize(value).map_err(D::Error::custom)
    }
}

/// The rules-v1 round table (§1.5 of the spec): base limits 2, 2, 3, 3, 4.
pub const V1_ROUNDS: [RoundRow; 5] = [
    RoundRow {
        rv: 1,
        rc: 2,
        limit: 2,
    },
    RoundRow {
        rv: 1,
        rc: 2,
        limit: 2,
    },
    RoundRow {
        rv: 2,
        rc: 4,
        limit: 3,
    },
    RoundRow {
        rv: 2,
        rc: 4,
        limit: 3,
    },
    RoundRow {
        rv: 3,
        rc: 6,
        limit: 4,
    },
];

/// The standard (rules-v2) round table: RV and RC as in v1, base limits of docs decision 11.
pub const STANDARD_ROUNDS: [RoundRow; 5] = [
    RoundRow {
        rv: 1,
        rc: 2,
        limit: 2,
    },
    RoundRow {
        rv: 1,
        rc: 2,
        limit: 2,
    },
    RoundRow {
        rv: 2,
        rc: 4,
        limit: 2,
    },
    RoundRow {
        rv: 2,
        rc: 4,
        limit: 3,
    },
    RoundRow {
        rv: 3,
        rc: 6,
        limit: 4,
    },
];

impl Default for Options {
    /// The standard game of rules version 2 (docs decision 11).
    fn default() -> Self {
        let mut legacy = Options::legacy();
        legacy.investment_options[2].cost_rv = 15;
        Options {
            round_table: STANDARD_ROUNDS.to_vec(),
            bonus_table: BonusTable::default(),
            portfolio_rules: PortfolioRules::V2,
            ..legacy
        }
    }
}

impl Options {
    /// The standard game of rules version 1 (the default before docs decision 11): v1 round table, v1
    /// hand growth. Its serialisation is byte-identical to the v1 code's `Options::default()`.
    pub fn legacy() -> Self {
        Options {
            allow_two_players: false,
            first_player: None,
            starting_purse: 75,
            round_table: V1_ROUNDS.to_vec(),
            investment_options: vec![
                InvestmentOption {
                    name: "abstain".into(),
                    cost_rv: 0,
                    limit_bonus: 0,
                },
                InvestmentOption {
                    name: "broker".into(),
                    cost_rv: 3,
                    limit_bonus: 1,
                },
                InvestmentOption {
                    name: "patron".into(),
                    cost_rv: 6,
                    limit_bonus: 2,
                },
            ],
            bonus_table: BonusTable::V1,
            weed_penalty: -5,
            sack_penalty: 0,
            max_bonuses_per_player: 1,
            three_pairs_distinct: true,
            semper_value: SemperValue::MaxMarket,
            queen_per_crisis: 3,
            bouquet_value: 0,
            post_accusation_min_strict: true,
            reoffer_min: ReofferMin::Rv,
            crisis_arrival_wipes: true,
            crisis_neighbour_booms: false,
            sacks_to_supply: true,
            score_includes_cash: true,
            collapse_tiebreak_precollapse_values: false,
            auto_single_choice: false,
            portfolio_rules: PortfolioRules::V1,
        }
    }
}

impl Options {
    /// Checks the options against `n_seats`; the message names the first problem.
    pub fn validate(&self, n_seats: u8) -> Result<(), String> {
        if self.round_table.len() != 5 {
            return Err("round_table must have exactly 5 rows".into());
        }
        if self
            .round_table
            .iter()
            .any(|row| row.rv == 0 || row.rv > 1000 || row.rc > 100_000 || row.limit > 8)
        {
            return Err(
                "round_table values out of range (rv 1..=1000, rc ≤ 100000, limit ≤ 8)".into(),
            );
        }
        if self.investment_options.is_empty() || self.investment_options.len() > 8 {
            return Err("investment_options must have 1 to 8 entries".into());
        }
        if !self
            .investment_options
            .iter()
            .any(|option| option.cost_rv == 0)
        {
            return Err("investment_options must contain a cost-0 option".into());
        }
        for (i, option) in self.investment_options.iter().enumerate() {
            let ok = !option.name.is_empty()
                && option
                    .name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit());
            if !ok {
                return Err(format!(
                    "investment option name '{}' is not lower-case snake_case",
                    option.name
                ));
            }
            if self.investment_options[..i]
                .iter()
                .any(|other| other.name == option.name)
            {
                return Err(format!(
                    "investment option name '{}' is repeated",
                    option.name
                ));
            }
            if option.cost_rv > 1000 || option.limit_bonus > 4 {
                return Err("investment option values out of range".into());
            }
        }
        if !(1..=3).contains(&self.max_bonuses_per_player) {
            return Err("max_bonuses_per_player must be 1 to 3".into());
        }
        if let Some(fp) = self.first_player {
            if fp >= n_seats {
                return Err(format!(
                    "first_player {fp} is not a seat of a {n_seats}-seat game"
                ));
            }
        }
        if self.starting_purse > 1_000_000
            || self.queen_per_crisis > 1000
            || self.bouquet_value > 1000
        {
            return Err("money values out of range".into());
        }
        if let SemperValue::Fixed(n) = self.semper_value {
            if n > 1000 {
                return Err("semper_value out of range".into());
            }
        }
        Ok(())
    }
}
