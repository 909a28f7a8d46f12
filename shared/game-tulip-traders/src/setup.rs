//! Setup (§1.8): the opening market, each seat's dealt card and round 1; also the re-deal of
//! what a viewer cannot see (`game_core::Redeal`, for the no-leak test and the bots).

use crate::cards::{Card, ALL_CARDS, ALL_CELLS};
use crate::event::{private_pair, Event};
use crate::options::Options;
use crate::state::{Grid, Phase, Player, TulipTraders};
use game_core::{GameRng, Logged, Seat, SeatSet, SetupError, Viewer};

/// §1.8 setup for `n_seats` seats, with its events: the opening market
/// (`market_card_placed`, and any `boom`), each seat's dealt card (`cards_drawn`: the card
/// to the seat, the count to the others), and `round_started` with the first player.
pub fn setup(
    n_seats: u8,
    options: &Options,
    rng: &mut GameRng,
) -> Result<(TulipTraders, Vec<Logged<Event>>), SetupError> {
    let min = if options.allow_two_players { 2 } else { 3 };
    if !(min..=4).contains(&n_seats) {
        return Err(SetupError::SeatCount {
            min,
            max: 4,
            got: n_seats,
        });
    }
    options
        .validate(n_seats)
        .map_err(SetupError::InvalidOptions)?;
    let mut portfolio_deck: Vec<Card> = ALL_CARDS[..30].to_vec();
    rng.shuffle(&mut portfolio_deck);
    let mut market_deck = ALL_CELLS.to_vec();
    rng.shuffle(&mut market_deck);
    let mut game = TulipTraders {
        options: options.clone(),
        n_seats,
        round: 1,
        fp: Seat(0),
        phase: Phase::Declare,
        grid: Grid::empty(3, 3),
        market_deck,
        portfolio_deck,
        sack_supply: (1..=10).map(Card::sack).collect(),
        bank_issued: i64::from(options.starting_purse) * i64::from(n_seats),
        collapse_flag: false,
        offer: None,
        players: (0..n_seats)
            .map(|_| Player::new(options.starting_purse))
            .collect(),
        elimination_order: Vec::new(),
        result: None,
    };
    let mut events = Vec::new();
    let rv = game.options.round_table[0].rv;
    for slot in 0..9 {
        let cell = game.market_deck.remove(0);
        game.place_market_card(slot, cell, rv, &mut events);
    }
    for seat in Seat::all(n_seats) {
        let card = game.portfolio_deck.remove(0);
        game.players[seat.index()].add_card(card);
        let dealt = |cards| Event::CardsDrawn {
            seat,
            count: 1,
            cards,
            sacks: Vec::new(),
        };
        private_pair(
            &mut events,
            SeatSet::only(seat),
            dealt(Some(vec![card])),
            dealt(None),
        );
    }
    game.fp = match options.first_player {
        Some(fp) => Seat(fp),
        None => Seat(rng.below(u64::from(n_seats)) as u8),
    };
    game.start_round(rng, &mut events);
    // Round 1 can have no automatic step before the first declaration, but the auto
    // option may already apply (a single affordable option).
    while let Some((seat, action)) = game.forced_action() {
        game.effect(seat, action, &mut events);
        game.advance(rng, &mut events);
    }
    Ok((game, events))
}

/// Re-deals everything `viewer` cannot see among the places it cannot see: the Portfolio
/// deck, other seats' hands (while the game runs) and a sealed lot it did not offer; the
/// Market deck is reshuffled.
pub fn redeal(game: &TulipTraders, viewer: Viewer, rng: &mut GameRng) -> TulipTraders {
    let mut twin = game.clone();
    let over = game.phase == Phase::GameOver;
    let me = viewer.seat();
    let mut pool: Vec<Card> = twin.portfolio_deck.clone();
    let hidden_hands: Vec<usize> = (0..game.players.len())
        .filter(|&i| !over && me != Some(Seat(i as u8)))
        .collect();
    for &i in &hidden_hands {
        pool.extend(twin.players[i].hand.iter().copied());
    }
    let lot_hidden = game
        .offer
        .as_ref()
        .is_some_and(|o| !o.revealed && me != Some(o.seller));
    if lot_hidden {
        pool.extend(
            twin.offer
                .as_ref()
                .map(|o| o.lot.clone())
                .unwrap_or_default(),
        );
    }
    // Pools are sorted first, so the re-deal depends only on what the viewer sees
    // (game_core::Redeal).
    pool.sort_unstable();
    rng.shuffle(&mut pool);
    let mut rest = pool.into_iter();
    let size = twin.portfolio_deck.len();
    twin.portfolio_deck = rest.by_ref().take(size).collect();
    for &i in &hidden_hands {
        let size = twin.players[i].hand.len();
        let mut hand: Vec<Card> = rest.by_ref().take(size).collect();
        hand.sort();
        twin.players[i].hand = hand;
    }
    if lot_hidden {
        if let Some(offer) = twin.offer.as_mut() {
            offer.lot = rest.by_ref().take(offer.lot.len()).collect();
        }
    }
    twin.market_deck.sort_unstable();
    rng.shuffle(&mut twin.market_deck);
    twin
}
