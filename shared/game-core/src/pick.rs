//! Combination moves listed as one choice. A move that picks several items at once (the
//! tulips to bid on, the cards to discard) is, to the rules, one action per combination: 56
//! of them for two bid markers over ten tulips. A person picks items one by one. So the API's
//! listing ([`crate::DynGame::legal_actions_listed`]) replaces the combinations of one pick
//! by one schema entry, an array of the items to choose (`enum`, with `x-enum-labels` in
//! words, `uniqueItems`, `minItems`/`maxItems`), which a client renders as "choose up to 2"
//! and a sampler fills like any other schema.
//!
//! Only when nothing is lost: the combinations listed must be exactly every set of `min` to
//! `max` distinct items of the pick ([`Game::pick_of`] names the field), all sealed or none
//! (a sealed pick says so: `"sealed": true`); otherwise they stay listed one by one. The rules still have the final word on a submitted
//! action, as for every schema entry.

use crate::action_schema::action_object;
use crate::{Game, LegalAction, Seat, Visibility};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// How a combination move reads ([`Game::pick_of`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    /// The action's array field that holds the picked items.
    pub field: &'static str,
    /// The whole choice as a button or a form's legend: "Mark up to 2 tulips to bid on".
    pub label: String,
    /// Each item of this combination in words ("the white C2 tulip"), in the field's order.
    pub items: Vec<String>,
}

/// What the listing does with each legal action (by index): list it, list the pick that
/// replaces its group in its place, or leave it out (a later member of a listed pick).
pub(crate) enum Slot {
    Own,
    Pick {
        label: String,
        schema: Value,
        sealed: bool,
    },
    Folded,
}

/// One group of combinations: same action but for `field`.
struct Group {
    first: usize,
    members: Vec<usize>,
    field: &'static str,
    label: String,
    template: Map<String, Value>,
    /// Each item (its JSON) and its words, in order of first appearance.
    items: Vec<(Value, String)>,
    /// Each member's items, as a sorted set of their JSON texts.
    combinations: BTreeSet<Vec<String>>,
    sizes: BTreeSet<usize>,
    sealed: bool,
    broken: bool,
}

/// The slot of each of `legal` (the seat's legal actions) in the listing.
pub(crate) fn slots<G: Game>(game: &G, seat: Seat, legal: &[LegalAction<G::Action>]) -> Vec<Slot> {
    let mut slots: Vec<Slot> = legal.iter().map(|_| Slot::Own).collect();
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    for (index, entry) in legal.iter().enumerate() {
        let LegalAction::Action { action } = entry else {
            continue;
        };
        let Some(pick) = game.pick_of(seat, action) else {
            continue;
        };
        let Ok(Value::Object(mut object)) = serde_json::to_value(action) else {
            continue;
        };
        let Some(Value::Array(items)) = object.remove(pick.field) else {
            continue;
        };
        let key = serde_json::to_string(&(pick.field, &object)).expect("JSON");
        let sealed = G::action_visibility(action, seat) != Visibility::Public;
        let group = groups.entry(key).or_insert_with(|| Group {
            first: index,
            members: Vec::new(),
            field: pick.field,
            label: pick.label.clone(),
            template: object,
            items: Vec::new(),
            combinations: BTreeSet::new(),
            sizes: BTreeSet::new(),
            sealed,
            broken: false,
        });
        group.members.push(index);
        let mut texts: Vec<String> = items.iter().map(Value::to_string).collect();
        texts.sort();
        texts.dedup();
        if sealed != group.sealed || texts.len() != items.len() || pick.items.len() != items.len() {
            group.broken = true;
        }
        for (item, words) in items.into_iter().zip(pick.items) {
            if !group.items.iter().any(|(known, _)| *known == item) {
                group.items.push((item, words));
            }
        }
        group.sizes.insert(texts.len());
        group.combinations.insert(texts);
    }
    for group in groups.into_values() {
        let (Some(&min), Some(&max)) = (group.sizes.first(), group.sizes.last()) else {
            continue;
        };
        let every = (min..=max)
            .map(|k| binomial(group.items.len(), k))
            .sum::<u128>();
        let complete = !group.broken
            && group.members.len() >= 2
            && group.combinations.len() == group.members.len()
            && group.combinations.len() as u128 == every;
        if !complete {
            continue;
        }
        let mut properties = Map::new();
        let mut tag = None;
        for (name, value) in &group.template {
            if name == "type" {
                tag = value.as_str().map(str::to_owned);
            } else {
                properties.insert(name.clone(), json!({ "const": value }));
            }
        }
        let Some(tag) = tag else { continue };
        let (values, words): (Vec<Value>, Vec<String>) = group.items.into_iter().unzip();
        let mut items = json!({
            "type": "array",
            "items": {"enum": values, "x-enum-labels": words},
            "uniqueItems": true,
            "minItems": min,
            "maxItems": max,
        });
        // Nothing chosen, when choosing nothing is a move.
        if min == 0 {
            items["default"] = json!([]);
        }
        properties.insert(group.field.into(), items);
        let schema = action_object(&tag, Value::Object(properties));
        for &member in &group.members {
            slots[member] = Slot::Folded;
        }
        slots[group.first] = Slot::Pick {
            label: group.label,
            schema,
            sealed: group.sealed,
        };
    }
    slots
}

/// n choose k, saturating (a pick of more than a hundred items is never complete anyway).
fn binomial(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u128, |acc, i| {
        acc.saturating_mul((n - i) as u128) / (i as u128 + 1)
    })
}

#[cfg(test)]
mod tests {
    use super::binomial;

    #[test]
    fn binomials() {
        assert_eq!(binomial(10, 0), 1);
        assert_eq!(binomial(10, 1), 10);
        assert_eq!(binomial(10, 2), 45);
        assert_eq!(binomial(5, 3), 10);
        assert_eq!(binomial(3, 4), 0);
    }
}
