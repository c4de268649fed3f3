/// An append-only list that shares its elements between copies: appending to a copy costs one node,
/// whatever the length, so a fold that keeps the state before each event copies nothing.
public struct Chain<Element: Sendable & Equatable>: Sendable, Equatable {
    private final class Node: Sendable {
        let element: Element
        let previous: Node?
        init(_ element: Element, _ previous: Node?) {
            self.element = element
            self.previous = previous
        }
    }

    private var last: Node?
    public private(set) var count = 0

    public init() {}

    public init(_ elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    public mutating func append(_ element: Element) {
        last = Node(element, last)
        count += 1
    }

    public var isEmpty: Bool { count == 0 }

    /// The newest element.
    public var newest: Element? { last?.element }

    /// The elements, oldest first.
    public var elements: [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        var node = last
        while let current = node {
            result.append(current.element)
            node = current.previous
        }
        return result.reversed()
    }

    /// The newest element that passes `match`.
    public func last(where match: (Element) -> Bool) -> Element? {
        var node = last
        while let current = node {
            if match(current.element) { return current.element }
            node = current.previous
        }
        return nil
    }

    public static func == (lhs: Chain, rhs: Chain) -> Bool {
        lhs.last === rhs.last || (lhs.count == rhs.count && lhs.elements == rhs.elements)
    }
}

/// One entry of a game's scoring list: a scoring play, or the change of a `score.corrected`.
public struct ScoringPlay: Sendable, Equatable {
    /// The message id of the event (what `event.retracted` names).
    public var id: String
    /// The period (baseball: the inning) it happened in.
    public var period: Int
    /// The clock as the sport shows it (`"4:32"`, `"53'"`, `"45+2'"`), when known.
    public var clock: String?
    /// The side that scored (`nil` for a correction).
    public var side: Side?
    /// Points scored (a correction: 0, its change is in ``homeChange``/``awayChange``).
    public var points: Int
    public var kind: ScoringKind
    public var player: String?
    /// A correction's change of each side's score.
    public var homeChange: Int
    public var awayChange: Int
    /// The in-play score after it.
    public var homeScore: Int
    public var awayScore: Int

    public init(
        id: String, period: Int, clock: String?, side: Side?, points: Int, kind: ScoringKind, player: String?,
        homeChange: Int = 0, awayChange: Int = 0, homeScore: Int, awayScore: Int
    ) {
        self.id = id
        self.period = period
        self.clock = clock
        self.side = side
        self.points = points
        self.kind = kind
        self.player = player
        self.homeChange = homeChange
        self.awayChange = awayChange
        self.homeScore = homeScore
        self.awayScore = awayScore
    }

    /// The change of the home and the away score.
    public var change: (home: Int, away: Int) {
        guard let side else { return (homeChange, awayChange) }
        return side == .home ? (points, 0) : (0, points)
    }
}

/// A soccer card.
public struct CardShown: Sendable, Equatable {
    public var id: String
    public var side: Side
    public var card: Card
    public var player: String?
    public var period: Int
    public var clock: String?

    public init(id: String, side: Side, card: Card, player: String?, period: Int, clock: String?) {
        self.id = id
        self.side = side
        self.card = card
        self.player = player
        self.period = period
        self.clock = clock
    }
}

/// A shoot-out attempt.
public struct ShootoutAttempt: Sendable, Equatable {
    public var id: String
    public var side: Side
    public var scored: Bool
    public var player: String?

    public init(id: String, side: Side, scored: Bool, player: String?) {
        self.id = id
        self.side = side
        self.scored = scored
        self.player = player
    }
}

/// Points (or goals, or kicks) per side.
public struct SideTally: Sendable, Equatable {
    public var home: Int
    public var away: Int

    public init(home: Int = 0, away: Int = 0) {
        self.home = home
        self.away = away
    }

    public subscript(side: Side) -> Int {
        get { side == .home ? home : away }
        set { if side == .home { home = newValue } else { away = newValue } }
    }
}

/// American football's down and distance.
public struct Situation: Sendable, Equatable {
    public var possession: Side
    /// 1–4, with ``distance`` and ``yardLine``, when known.
    public var down: Int?
    /// Yards to go.
    public var distance: Int?
    /// Yards from the possessing team's own goal line (75 = the opponent's 25).
    public var yardLine: Int?

    public init(possession: Side, down: Int?, distance: Int?, yardLine: Int?) {
        self.possession = possession
        self.down = down
        self.distance = distance
        self.yardLine = yardLine
    }
}
