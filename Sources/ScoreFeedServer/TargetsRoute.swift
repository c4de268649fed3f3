import Foundation
import Hummingbird
import ScoreStore

/// `GET /v1/games/{id}/targets`, with an app key: every push target of the game that app registered
/// (its Live Activities by APNs or FCM, its broadcast channels, its push-to-start devices following the
/// game, its Android followers), removed ones too, as ``OperatorTargets`` shapes them. The operator page
/// `/games/{id}/operator` shows it. Another app's targets are never listed.
struct TargetsRoute {
    let appKeys: AppKeys
    let database: Database
    let view: OperatorTargets

    func handle(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let app = try Credentials.requireApp(request, in: appKeys).name
        let gameId = try context.parameters.require("id")
        do {
            try Activities.validate(gameId: gameId)
        } catch {
            throw ActivityRoutes.invalid(error.field, error.reason)
        }
        let pool = try await database.ready().reads
        let (known, targets) = try await pool.withSession { session in
            let targets = try GameTargets.list(gameId: gameId, app: app, now: Date(), in: session)
            return (try !targets.isEmpty || EventLog.hasStream(gameId, in: session), targets)
        }
        // A game the provider has not announced yet may have targets (`allowUnknownGame`).
        guard known else { throw APIError.notFound("no game \"\(gameId.clipped())\" and no target of it") }
        return .json(view.json(gameId: gameId, app: app, targets: targets))
    }
}
