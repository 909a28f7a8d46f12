//! What one viewer may see (spec §2): public elements plus the viewer's own private ones.

use crate::event::RevealedCard;
use crate::options::Options;
use crate::pieces::{counts_map, total, Card, Colour, DiscardedBuyer};
use crate::setup::Parameters;
use crate::state::{EndReason, Phase, Tulipmania};
use game_core::{Game, Seat, SeatSet, Viewer};
use serde::Serialize;
use std::collections::BTreeMap;

/// The view of one seat or of a spectator. Other players' buyer colours, the deck, the
/// reserve and other players' sealed cards appear only as counts or flags.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::View))]
pub struct View {
    /// The viewer's seat; null for a spectator.
    pub viewer: Option<Seat>,
    /// Number of players.
    pub n_seats: u8,
    /// The colours in play.
    pub colours: Vec<Colour>,
    /// What was put back in the box at setup (public).
    pub removed_at_setup: RemovedAtSetup,
    /// The game's options.
    pub options: Options,
    /// The first player.
    pub first_player: Seat,
    /// The turn number (from 1).
    pub turn_number: u32,
    /// The phase: `sell_choice`, `commit`, `seller_card`, `draw`, `purchase` or `game_over`.
    pub phase: String,
    /// The seats that may act now.
    pub to_act: SeatSet,
    /// The holder of the current player card.
    pub current_player: Seat,
    /// The holder of the priority card.
    pub priority_holder: Seat,
    /// Every player, by seat.
    pub players: Vec<PlayerView>,
    /// The bank (a signed ledger).
    pub bank: i64,
    /// The stockpile, by colour in play.
    pub stock: BTreeMap<Colour, u8>,
    /// Every colour's price marker.
    pub markers: Vec<MarkerView>,
    /// The colours in the order they burst.
    pub burst_order: Vec<Colour>,
    /// Cards left in the face-down buyer deck.
    pub deck_count: usize,
    /// The face-up buyer row.
    pub face_up: Vec<Colour>,
    /// Whether the deck has run out.
    pub deck_exhausted: bool,
    /// Cards left in the reserve deck.
    pub reserve_count: usize,
    /// Every removed buyer card, in order.
    pub buyer_discard: Vec<DiscardedBuyer>,
    /// The colour on sale, if a sale is under way.
    pub in_transit: Option<Colour>,
    /// The colour sold this turn (it may not be bought this turn).
    pub sold_colour_this_turn: Option<Colour>,
    /// Whether the current player sold this turn.
    pub did_sell: bool,
    /// Whether the current player drew a buyer this turn.
    pub did_draw: bool,
    /// Whether the current player bought a tulip this turn.
    pub did_buy: bool,
    /// Consecutive idle turns.
    pub idle_turns: u32,
    /// Buyer draws taken so far.
    pub draws: u32,
    /// During `commit`: the seats that have committed (never their cards).
    pub committed: Option<SeatSet>,
    /// During `seller_card`: every other player's effective (revealed) card.
    pub revealed: Option<Vec<RevealedCard>>,
    /// Once the game is over: why, and the ranks (score = cash).
    pub result: Option<ResultView>,
}

/// The components removed at setup (fewer players use fewer colours).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::RemovedAtSetup))]
pub struct RemovedAtSetup {
    /// Colours not in play (all their tulips and buyer cards).
    pub colours: Vec<Colour>,
    /// Tulips removed from each colour in play.
    pub tulips_per_colour_in_play: u8,
}

/// One player as `viewer` sees him.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::PlayerView))]
pub struct PlayerView {
    /// The seat.
    pub seat: Seat,
    /// Cash (public).
    pub cash: i64,
    /// Tulips by colour (public).
    pub tulips: BTreeMap<Colour, u8>,
    /// Number of buyer cards (public).
    pub buyer_count: u32,
    /// Buyer cards by colour: only in the player's own view.
    pub buyers: Option<BTreeMap<Colour, u8>>,
    /// Whether he has committed a card in the current sale (public during `commit`).
    pub committed: bool,
    /// His sealed card: only in his own view, during `commit`.
    pub sealed_card: Option<Card>,
}

/// A colour's price marker.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::MarkerView))]
pub struct MarkerView {
    /// The colour.
    pub colour: Colour,
    /// The space id, or null once the colour has burst (`REMOVED`).
    pub space: Option<String>,
    /// The current price, or null once burst.
    pub price: Option<i64>,
    /// What a `speculate` card pays now (the gold arrow's transition space).
    pub speculate_price: Option<i64>,
    /// What the seller receives if everybody passes (the pink arrow, or the current price on
    /// the bottom row).
    pub all_pass_price: Option<i64>,
}

/// The end of the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::ResultView))]
pub struct ResultView {
    /// Why the game ended.
    pub reason: EndReason,
    /// Final cash by seat.
    pub cash: Vec<i64>,
    /// Ranks by seat (1 = best; equal cash shares a rank).
    pub ranks: Vec<u8>,
    /// Every seat of rank 1.
    pub winners: SeatSet,
}

/// Builds the view of `viewer` field by field (spec §2 visibility column).
pub fn view(game: &Tulipmania, viewer: Viewer) -> View {
    let me = viewer.seat();
    let commits = match &game.phase {
        Phase::Commit { commits } => Some(commits),
        _ => None,
    };
    let players = Seat::all(game.n_seats)
        .map(|seat| {
            let own = me == Some(seat);
            let sealed = commits.and_then(|commits| commits[seat.index()]);
            PlayerView {
                seat,
                cash: game.cash[seat.index()],
                tulips: counts_map(&game.tulips[seat.index()], game.n_seats),
                buyer_count: total(&game.buyers[seat.index()]),
                buyers: own.then(|| counts_map(&game.buyers[seat.index()], game.n_seats)),
                committed: sealed.is_some(),
                sealed_card: if own { sealed } else { None },
            }
        })
        .collect();
    let markers = game
        .colours()
        .iter()
        .map(|&colour| MarkerView {
            colour,
            space: game.marker_id(colour).map(str::to_owned),
            price: game.price(colour),
            speculate_price: game.markers[colour.index()]
                .and_then(|space| game.board.space(space).speculate_via)
                .map(|via| game.board.value(via)),
            all_pass_price: game.markers[colour.index()].map(|space| {
                let space = game.board.space(space);
                space
                    .sale_via
                    .map_or(space.value, |via| game.board.value(via))
            }),
        })
        .collect();
    let revealed = match &game.phase {
        Phase::SellerCard { revealed } => Some(
            Seat::all(game.n_seats)
                .filter_map(|seat| revealed[seat.index()].map(|card| RevealedCard { seat, card }))
                .collect(),
        ),
        _ => None,
    };
    let result = game.outcome().map(|outcome| ResultView {
        reason: match game.phase {
            Phase::GameOver { reason } => reason,
            _ => unreachable!("a result exists only when the game is over"),
        },
        cash: outcome.scores,
        ranks: outcome.ranks,
        winners: outcome.winners,
    });
    View {
        viewer: me,
        n_seats: game.n_seats,
        colours: game.colours().to_vec(),
        removed_at_setup: RemovedAtSetup {
            colours: Colour::ALL[game.colours().len()..].to_vec(),
            tulips_per_colour_in_play: 11 - Parameters::for_seats(game.n_seats).tulips_per_colour,
        },
        options: game.options.clone(),
        first_player: game.first_player,
        turn_number: game.turn_number,
        phase: game.phase.name().to_owned(),
        to_act: game.to_act(),
        current_player: game.current_player,
        priority_holder: game.priority_holder,
        players,
        bank: game.bank,
        stock: counts_map(&game.stock, game.n_seats),
        markers,
        burst_order: game.burst_order.clone(),
        deck_count: game.deck.len(),
        face_up: game.face_up.clone(),
        deck_exhausted: game.deck_exhausted,
        reserve_count: game.reserve.len(),
        buyer_discard: game.buyer_discard.clone(),
        in_transit: game.in_transit,
        sold_colour_this_turn: game.sold_colour_this_turn,
        did_sell: game.did_sell,
        did_draw: game.did_draw,
        did_buy: game.did_buy,
        idle_turns: game.idle_turns,
        draws: game.draws,
        committed: commits.map(|commits| {
            Seat::all(game.n_seats)
                .filter(|seat| commits[seat.index()].is_some())
                .collect()
        }),
        revealed,
        result,
    }
}
