//! Setup (spec §1.7), with the RNG consumption order of §5.1.

use crate::cards::{Colour, EventCard, Tulip, COLLECTOR_STACKS};
use crate::event::Event;
use crate::options::Options;
use crate::state::{Phase, Player, Slot, TulipBubble};
use crate::track::Track;
use game_core::{GameRng, Logged, Seat, Setup, SetupError, Viewer};

/// S1 (RNG#1): a uniformly random permutation of R, W, Y onto the levels II, III, IV.
pub fn initial_track(rng: &mut GameRng) -> Track {
    let mut colours = Colour::ALL;
    rng.shuffle(&mut colours);
    let mut levels = [0u8; 3];
    for (colour, level) in colours.iter().zip([2u8, 3, 4]) {
        levels[colour.index()] = level;
    }
    Track::new(levels[0], levels[1], levels[2])
}

/// S4 (RNG#3, RNG#4): the 10-card event deck with `BUST` among the bottom three, and the
/// card removed unseen.
pub fn event_deck(rng: &mut GameRng) -> (Vec<EventCard>, EventCard) {
    let mut others: Vec<EventCard> = EventCard::others().collect();
    rng.shuffle(&mut others);
    let removed = others.remove(0);
    let mut bottom: Vec<EventCard> = others.split_off(others.len() - 2);
    bottom.push(EventCard::BUST);
    rng.shuffle(&mut bottom);
    others.extend(bottom);
    (others, removed)
}

/// The largest amount an option may set, so that no sum of game amounts can overflow.
pub const MAX_AMOUNT: i64 = 1_000_000_000_000;

/// Deals a new game (§1.7) and logs it, all public: `game_dealt`, the opening
/// `market_response` (§7.1, if on), and the setup `market_event` (S6).
pub fn setup(
    n_seats: u8,
    options: &Options,
    rng: &mut GameRng,
) -> Result<Setup<TulipBubble>, SetupError> {
    if !(3..=5).contains(&n_seats) {
        return Err(SetupError::SeatCount {
            min: 3,
            max: 5,
            got: n_seats,
        });
    }
    if options
        .a_price_low
        .iter()
        .any(|&price| !(1..=MAX_AMOUNT).contains(&price))
    {
        return Err(SetupError::InvalidOptions(
            "a_price_low values must be between 1 and 10^12".into(),
        ));
    }
    let amounts = [
        options.starting_cash,
        options.black_tulip_threshold,
        // Saturating: a client may send i64::MIN, and this check must not overflow.
        options.bid_cap.saturating_sub(1),
    ];
    if amounts
        .iter()
        .any(|amount| !(0..=MAX_AMOUNT).contains(amount))
    {
        return Err(SetupError::InvalidOptions(
            "starting_cash and black_tulip_threshold must be between 0 and 10^12, bid_cap between 1 and 10^12"
                .into(),
        ));
    }
    if let Some(seat) = options.start_player {
        if seat.0 >= n_seats {
            return Err(SetupError::InvalidOptions(format!(
                "start_player {} is not a seat",
                seat.0
            )));
        }
    }
    // S1.
    let track = initial_track(rng);
    // S2.
    let players = (0..n_seats)
        .map(|_| Player::new(options.starting_cash))
        .collect();
    // S3.
    let mut deck: Vec<Tulip> = Tulip::all().collect();
    rng.shuffle(&mut deck);
    let per_area = usize::from(n_seats) + 2;
    let next_shipment: Vec<Tulip> = deck.drain(..per_area).collect();
    let new_arrivals: Vec<Slot> = deck.drain(..per_area).map(Slot::new).collect();
    let just_sold: Vec<Slot> = deck.drain(..per_area).map(Slot::new).collect();
    // S4.
    let (event_deck, removed_event) = event_deck(rng);
    let mut game = TulipBubble {
        options: options.clone(),
        n_seats,
        round: 1,
        start_player: Seat(0),
        track,
        tulip_deck: deck,
        tulip_discard: Vec::new(),
        next_shipment,
        new_arrivals,
        just_sold,
        event_deck,
        removed_event,
        event_history: Vec::new(),
        collector_stacks: [Vec::new(), Vec::new(), Vec::new()],
        collectors_boxed: Vec::new(),
        black_tulip_available: true,
        players,
        phase: Phase::BidPlacement {
            pass: 1,
            placer: Seat(0),
        },
    };
    let initial_track = game.track;
    // S5 (§7.1).
    let mut events: Vec<Event> = Vec::new();
    if options.opening_market_response {
        game.market_response(&mut events);
    }
    // S6: the setup event is never BUST (BUST is in the bottom three of ten).
    let setup_event = game.event_deck.remove(0);
    game.track.apply_event(setup_event.effect());
    game.event_history.push(setup_event);
    events.push(Event::MarketEvent {
        round: game.round,
        card: setup_event,
        track: game.track,
    });
    // S7 (RNG#5–7).
    for (stack, (_, cards)) in game.collector_stacks.iter_mut().zip(COLLECTOR_STACKS) {
        *stack = cards.to_vec();
        rng.shuffle(stack);
    }
    // S9 (RNG#8 only when unset).
    game.start_player = match options.start_player {
        Some(seat) => seat,
        None => Seat(rng.below(u64::from(n_seats)) as u8),
    };
    // S10: round 1 starts with bid placement.
    game.phase = Phase::BidPlacement {
        pass: 1,
        placer: game.start_player,
    };
    let dealt = Event::GameDealt {
        track: initial_track,
        next_shipment: game.next_shipment.clone(),
        new_arrivals: game.new_arrivals.iter().map(|slot| slot.tulip).collect(),
        just_sold: game.just_sold.iter().map(|slot| slot.tulip).collect(),
        collectors: game
            .collector_stacks
            .iter()
            .map(|stack| stack.first().copied())
            .collect(),
        start_player: game.start_player,
    };
    let log = std::iter::once(dealt)
        .chain(events)
        .map(Logged::public)
        .collect();
    Ok((game, log))
}

/// Re-deals what `viewer` cannot see: the other seats' concealed tulips and the tulip
/// deck (same sizes), the event deck with the removed card, each collector stack below
/// its top card, the other seats' cash (keeping whether each can afford a buy-back, which
/// `to_act` shows) and the other seats' sealed Black Tulip decisions.
pub(crate) fn redeal(game: &TulipBubble, viewer: Viewer, rng: &mut GameRng) -> TulipBubble {
    let mut twin = game.clone();
    if game.is_over() {
        return twin;
    }
    let hidden_seats: Vec<Seat> = Seat::all(game.n_seats)
        .filter(|&seat| viewer.seat() != Some(seat))
        .collect();
    // Tulips.
    let mut pool = twin.tulip_deck.clone();
    for seat in &hidden_seats {
        pool.extend(&twin.players[seat.index()].concealed);
    }
    // Pools are sorted before shuffling, so the re-deal depends only on what the viewer
    // sees (game_core::Redeal).
    pool.sort_unstable();
    rng.shuffle(&mut pool);
    let deck_size = twin.tulip_deck.len();
    twin.tulip_deck = pool.drain(..deck_size).collect();
    for seat in &hidden_seats {
        let player = &mut twin.players[seat.index()];
        let size = player.concealed.len();
        player.concealed = pool.drain(..size).collect();
        player.concealed.sort();
    }
    // Events.
    let mut events = twin.event_deck.clone();
    events.push(twin.removed_event);
    events.sort_unstable();
    rng.shuffle(&mut events);
    if let Some(removed) = events.pop() {
        twin.removed_event = removed;
    }
    twin.event_deck = events;
    // Collector stacks below the face-up card.
    for stack in &mut twin.collector_stacks {
        if stack.len() > 2 {
            stack[1..].sort_unstable();
            rng.shuffle(&mut stack[1..]);
        }
    }
    // Cash.
    for seat in &hidden_seats {
        let player = &mut twin.players[seat.index()];
        let smallest_loan = player.financed.iter().map(|loan| loan.loan).min();
        player.cash = match smallest_loan {
            Some(loan) if player.cash >= loan => loan + rng.below(200) as i64,
            Some(loan) => rng.below(loan.max(1) as u64) as i64,
            None => rng.below(300) as i64,
        };
    }
    // Sealed decisions.
    if let Phase::BlackTulipWindow { submitted, claims } = &mut twin.phase {
        for seat in &hidden_seats {
            if submitted.contains(*seat) {
                if rng.below(2) == 0 {
                    claims.insert(*seat);
                } else {
                    claims.remove(*seat);
                }
            }
        }
    }
    twin
}
