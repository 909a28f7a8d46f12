//! `POST /v1/games/{id}/rematch`: one linked game after a finished one, with the same
//! ruleset, options and clock, the seats turned one place, and a fresh seed commitment.
//!
//! The new game's id is derived from the old game's id and its admin token's hash, so every
//! request, however many arrive at once, finds or creates the same game. Each player of the
//! old game joins it with their own token; their new token is derived from the old one, so
//! asking again returns the same token. Bots take their seats at once. The new game is
//! invite-only: only the old game's players (here) and its admin (whose token administers
//! the new game too) may take its seats. The service does the work
//! ([`service::rematch`]).

use super::problems::{problems, BadToken, NoSuchGame, RetiredRules};
use crate::error::ApiError;
use crate::http::{Bearer, Params, Reply};
use axum::extract::State;
use service::ctx::AppCtx;
use service::dto::Rematch;
use std::sync::Arc;

problems! {
    /// How `rematch` refuses a request, beyond the shared refusals it lists.
    RematchRefused {
        401 => "No token, or one not valid for this game",
        403 => "A seat a bot plays, or a game of bots only",
        409 => "The game has not finished (`game-not-finished`)",
    }
}

/// Ask for a rematch
///
/// After a game has finished, creates its rematch (once: every request gets the same game)
/// and seats the caller in it. The new game has the same ruleset, options and clock, a fresh
/// seed commitment, and the seats turned one place (the old seat 1 becomes seat 0, so
/// another player starts). Each player of the old game asks with their own seat token and
/// gets their seat and token in the new game; bots take their seats at once; the game starts
/// when the last player has asked. The admin token may ask too (it administers the new game,
/// and may claim the seat of a player who does not come back). The old game's `rematch`
/// names the new game, and the new game's `rematch_of` the old one.
#[utoipa::path(
    post,
    path = "/v1/games/{id}/rematch",
    tag = "games",
    params(("id" = String, Path, description = "The finished game's id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The rematch, with the caller's seat and token in it", body = Rematch),
        RematchRefused,
        BadToken,
        NoSuchGame,
        RetiredRules,
    )
)]
pub async fn rematch(
    State(ctx): State<Arc<AppCtx>>,
    Params(id): Params<String>,
    bearer: Bearer,
) -> Result<Reply, ApiError> {
    let rematch = service::rematch::rematch(&ctx, id, bearer.who()).await?;
    Ok(Reply::json(200, &rematch))
}
