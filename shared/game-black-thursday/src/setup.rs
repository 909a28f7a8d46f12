//! The deal (spec §1.5) and the opening roll (§1.6).

use crate::board::validate_origins;
use crate::coins::{private_pair, redact};
use crate::event::{CoinInfo, DrawReason, Event, Events, OpeningRoll};
use crate::options::Options;
use crate::pieces::{suit_of, Suit};
use crate::state::{BlackThursday, Counters, Phase, Player, Position, Slot, Status, Turn};
use game_core::{GameRng, Logged, Seat, Setup, SetupError, Viewer};

/// Deals a new game (spec §1.5): each seat's coins (`coins_drawn`, reason `deal`: values to
/// the seat, suits only to the others), the opening roll (`opening_rolled`) and the first
/// turn's events.
pub fn setup(
    n_seats: u8,
    options: &Options,
    rng: &mut GameRng,
) -> Result<Setup<BlackThursday>, SetupError> {
    let mut events = Vec::new();
    let game = BlackThursday::new_game(n_seats, options, rng, &mut events)?;
    Ok((game, events))
}

impl BlackThursday {
    /// Deals a new game (spec §1.5).
    pub fn new_game(
        n_seats: u8,
        options: &Options,
        rng: &mut GameRng,
        events: &mut Events,
    ) -> Result<BlackThursday, SetupError> {
        if !(3..=4).contains(&n_seats) {
            return Err(SetupError::SeatCount {
                min: 3,
                max: 4,
                got: n_seats,
            });
        }
        let n = usize::from(n_seats);
        let invalid = |text: &str| SetupError::InvalidOptions(text.to_string());
        let origins = options.layout.origins();
        validate_origins(&origins).map_err(SetupError::InvalidOptions)?;
        let starting = options
            .starting_coins
            .per_seat(n)
            .ok_or_else(|| invalid("starting_coins needs one number per seat"))?;
        if starting.iter().map(|&c| u32::from(c)).sum::<u32>() > 24 {
            return Err(invalid("at most 24 starting coins in total"));
        }
        let mut suits = options.pawn_suits.clone();
        suits.sort();
        if suits != Suit::ALL {
            return Err(invalid(
                "pawn_suits must be a permutation of the four suits",
            ));
        }
        let limits = &options.limits;
        if limits.max_offers_per_session == 0
            || limits.max_terms_per_offer == 0
            || limits.max_promise_chars == 0
            || options.max_ap_per_term == 0
        {
            return Err(invalid("limits must be at least 1"));
        }

        let mut tiles: Vec<u8> = (0..24).collect();
        rng.shuffle(&mut tiles);
        let slots = origins
            .iter()
            .zip(&tiles)
            .map(|(&origin, &tile)| Slot {
                origin,
                tile,
                face_up: false,
                rotation: None,
                seen: false,
            })
            .collect();
        let mut out_of_play = tiles[origins.len()..].to_vec();
        out_of_play.sort_unstable();
        let players = (0..n)
            .map(|seat| Player {
                pawn_suit: options.pawn_suits[seat],
                status: Status::InBuilding,
                position: Position::Unplaced,
                ap_bonus: 0,
                ap_debt: 0,
                coins: Vec::new(),
            })
            .collect();
        let mut game = BlackThursday {
            options: options.clone(),
            n_seats,
            version: 0,
            slots,
            out_of_play,
            bag: (0..24).collect(),
            players,
            counters: Counters::default(),
            turn: Turn {
                number: 0,
                active: Seat(0),
                die: None,
                ap: 0,
                moved: false,
                market_traded: false,
                groups_used: Vec::new(),
            },
            phase: Phase::Place,
            session: None,
            promises: Vec::new(),
            claims: Vec::new(),
            offer_schema: Default::default(),
        };
        for (seat, &count) in starting.iter().enumerate() {
            let seat = Seat(seat as u8);
            let drawn: Vec<CoinInfo> = (0..count).map(|_| game.draw_to(seat, rng)).collect();
            if !drawn.is_empty() {
                private_pair(
                    events,
                    seat,
                    Event::CoinsDrawn {
                        seat,
                        reason: DrawReason::Deal,
                        coins: drawn.clone(),
                    },
                    Event::CoinsDrawn {
                        seat,
                        reason: DrawReason::Deal,
                        coins: redact(&drawn),
                    },
                );
            }
        }
        // Opening roll (spec §1.6).
        let mut contenders: Vec<Seat> = Seat::all(n_seats).collect();
        let mut rounds = Vec::new();
        let first = loop {
            let mut round = Vec::new();
            for &seat in &contenders {
                let mut rolls = Vec::new();
                loop {
                    let roll = rng.below(6) as u8;
                    rolls.push(roll);
                    if roll != 0 {
                        break;
                    }
                }
                round.push(OpeningRoll { seat, rolls });
            }
            let last = |r: &OpeningRoll| *r.rolls.last().unwrap_or(&0);
            let lowest = round.iter().map(last).min().unwrap_or(1);
            contenders = round
                .iter()
                .filter(|r| last(r) == lowest)
                .map(|r| r.seat)
                .collect();
            rounds.push(round);
            if contenders.len() == 1 {
                break contenders[0];
            }
        };
        events.push(Logged::public(Event::OpeningRolled { rounds, first }));
        game.turn.active = first;
        game.begin_turn(rng, events);
        Ok(game)
    }
}

/// Re-deals what `viewer` cannot see: never-seen face-down and out-of-play tiles among
/// themselves, and, per suit, the values of held coins outside the viewer's knowledge
/// together with the bag's coins of that suit (suits of held coins are public).
pub(crate) fn redeal(game: &BlackThursday, viewer: Viewer, rng: &mut GameRng) -> BlackThursday {
    let mut twin = game.clone();
    if game.phase == Phase::Ended {
        return twin;
    }
    let hidden_slots: Vec<usize> = (0..twin.slots.len())
        .filter(|&i| !twin.slots[i].face_up && !twin.slots[i].seen)
        .collect();
    let mut tiles: Vec<u8> = hidden_slots.iter().map(|&i| twin.slots[i].tile).collect();
    tiles.extend(twin.out_of_play.iter().copied());
    // Pools are sorted first, so the re-deal depends only on what the viewer sees
    // (game_core::Redeal).
    tiles.sort_unstable();
    rng.shuffle(&mut tiles);
    for (k, &i) in hidden_slots.iter().enumerate() {
        twin.slots[i].tile = tiles[k];
    }
    twin.out_of_play = tiles[hidden_slots.len()..].to_vec();
    twin.out_of_play.sort_unstable();

    let me = viewer.seat();
    for suit in 0..4u8 {
        let mut places: Vec<(usize, usize)> = Vec::new();
        for (seat, player) in twin.players.iter().enumerate() {
            for (pos, held) in player.coins.iter().enumerate() {
                let known = me.is_some_and(|s| held.known_by.contains(s));
                if suit_of(held.coin).index() == usize::from(suit) && !known {
                    places.push((seat, pos));
                }
            }
        }
        let mut pool: Vec<u8> = places
            .iter()
            .map(|&(s, p)| twin.players[s].coins[p].coin)
            .collect();
        let bag_coins: Vec<u8> = twin
            .bag
            .iter()
            .copied()
            .filter(|&c| suit_of(c).index() == usize::from(suit))
            .collect();
        pool.extend(&bag_coins);
        pool.sort_unstable();
        rng.shuffle(&mut pool);
        for (k, &(s, p)) in places.iter().enumerate() {
            twin.players[s].coins[p].coin = pool[k];
        }
        twin.bag
            .retain(|&c| suit_of(c).index() != usize::from(suit));
        twin.bag.extend(&pool[places.len()..]);
    }
    twin.bag.sort_unstable();
    twin
}
