//! The rule errors and their codes.

/// Why a command was refused. Messages never reveal hidden information.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Only the turn player may issue this now.
    #[error("only the turn player may do this")]
    NotYourTurn,
    /// The command does not exist in the current phase.
    #[error("this command is not available in the current phase")]
    WrongPhase,
    /// A parameter is out of range.
    #[error("bad parameters: {0}")]
    BadParams(&'static str),
    /// The seat is not a participant of the session.
    #[error("not a participant of the session")]
    NotParticipant,
    /// No action points left.
    #[error("no action points left")]
    NoAp,
    /// Not a roof space.
    #[error("not a roof space")]
    BadSpace,
    /// A pawn stands there.
    #[error("the space is occupied")]
    SpaceOccupied,
    /// No such slot.
    #[error("no such slot")]
    BadSlot,
    /// A pawn stands on the tile.
    #[error("a pawn stands on that tile")]
    TileOccupied,
    /// The player has left the building.
    #[error("the player is no longer in the building")]
    NotInBuilding,
    /// The pawn is not on the board yet.
    #[error("the pawn is not placed")]
    NotPlaced,
    /// The pawn already moved this turn.
    #[error("the pawn already moved this turn")]
    AlreadyMoved,
    /// Not one of the three spaces below.
    #[error("not a down-neighbour")]
    NotDownAdjacent,
    /// Exit only from the ground floor.
    #[error("not on the ground floor")]
    NotGroundFloor,
    /// A coin is not held by the right player.
    #[error("a coin is not held by the giver")]
    NotOwner,
    /// A coin is not of the window's suit.
    #[error("a coin is not of the window's suit")]
    SuitMismatch,
    /// Wrong number of coins for the window.
    #[error("wrong number of coins for this window")]
    SaleCount,
    /// The player is out of the market.
    #[error("the player is not in the market")]
    NotInMarket,
    /// The bag is empty.
    #[error("the bag is empty")]
    BagEmpty,
    /// The market trade of this turn was used.
    #[error("the market trade of this turn was used")]
    MarketTradeUsed,
    /// A player cannot trade with itself.
    #[error("cannot open a session with oneself")]
    SelfTrade,
    /// A jumped player cannot trade.
    #[error("a jumped player cannot trade")]
    PlayerJumped,
    /// The group was already used this turn.
    #[error("this group already had a session this turn")]
    GroupUsed,
    /// Too many terms.
    #[error("too many terms in one offer")]
    TooManyTerms,
    /// The session has reached its offer limit.
    #[error("the session has reached its offer limit")]
    OfferLimit,
    /// The turn player gives more AP than it has.
    #[error("the turn player does not have that many action points")]
    InsufficientAp,
    /// A value assertion on the caller's own coins is false.
    #[error("a value assertion on your coins is false")]
    AssertionFalse,
    /// Only the author may withdraw.
    #[error("not the author of the offer")]
    NotAuthor,
    /// The offer is not live in this session.
    #[error("the offer is not live")]
    OfferNotLive,
    /// The pointer already names that offer.
    #[error("already accepted")]
    AlreadyAccepted,
    /// No pointer to revoke.
    #[error("no acceptance to revoke")]
    NoAcceptance,
    /// Exited players cannot trade stock.
    #[error("an exited player cannot trade stock")]
    StockTradeForbidden,
    /// Only the promisee may do this.
    #[error("not the promisee")]
    NotPromisee,
    /// The promise is not open.
    #[error("the promise is not open")]
    PromiseNotOpen,
    /// Only the accused may concede.
    #[error("not the accused")]
    NotAccused,
    /// The claim is not being voted on.
    #[error("the claim is not open")]
    ClaimNotOpen,
    /// Only jurors vote.
    #[error("not a juror of this claim")]
    NotJuror,
    /// Each juror votes once.
    #[error("already voted")]
    AlreadyVoted,
}

// Turn order: a command only another seat may issue now (the turn player's, a session's
// participants', an offer's author's, a promise's promisee's, a claim's accused's or
// jurors'), and a second vote.
game_core::rule_error! {
    Error {
        Error::GameOver => "game-over", GameOver;
        Error::NotYourTurn => "not-your-turn", Turn;
        Error::WrongPhase => "wrong-phase", Rule;
        Error::BadParams(_) => "bad-params", Rule;
        Error::NotParticipant => "not-participant", Turn;
        Error::NoAp => "no-ap", Rule;
        Error::BadSpace => "bad-space", Rule;
        Error::SpaceOccupied => "space-occupied", Rule;
        Error::BadSlot => "bad-slot", Rule;
        Error::TileOccupied => "tile-occupied", Rule;
        Error::NotInBuilding => "not-in-building", Rule;
        Error::NotPlaced => "not-placed", Rule;
        Error::AlreadyMoved => "already-moved", Rule;
        Error::NotDownAdjacent => "not-down-adjacent", Rule;
        Error::NotGroundFloor => "not-ground-floor", Rule;
        Error::NotOwner => "not-owner", Rule;
        Error::SuitMismatch => "suit-mismatch", Rule;
        Error::SaleCount => "sale-count", Rule;
        Error::NotInMarket => "not-in-market", Rule;
        Error::BagEmpty => "bag-empty", Rule;
        Error::MarketTradeUsed => "market-trade-used", Rule;
        Error::SelfTrade => "self-trade", Rule;
        Error::PlayerJumped => "player-jumped", Rule;
        Error::GroupUsed => "group-used", Rule;
        Error::TooManyTerms => "too-many-terms", Rule;
        Error::OfferLimit => "offer-limit", Rule;
        Error::InsufficientAp => "insufficient-ap", Rule;
        Error::AssertionFalse => "assertion-false", Rule;
        Error::NotAuthor => "not-author", Turn;
        Error::OfferNotLive => "offer-not-live", Rule;
        Error::AlreadyAccepted => "already-accepted", Rule;
        Error::NoAcceptance => "no-acceptance", Rule;
        Error::StockTradeForbidden => "stock-trade-forbidden", Rule;
        Error::NotPromisee => "not-promisee", Turn;
        Error::PromiseNotOpen => "promise-not-open", Rule;
        Error::NotAccused => "not-accused", Turn;
        Error::ClaimNotOpen => "claim-not-open", Rule;
        Error::NotJuror => "not-juror", Turn;
        Error::AlreadyVoted => "already-voted", Turn;
    }
}
