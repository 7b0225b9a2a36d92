//! Every game sako plays, as data: board, pieces, start position, and the handful of
//! rules that are not piece movement (castling, drops, gating, promotion, game end).
//! The compiled, per-board-width form lives in [`crate::rules`].

use crate::rules::color::Color;
use crate::rules::geometry::{Geometry, Topology};
use crate::rules::piece::PieceDef;

/// One castling move: the king's and its partner's squares, named.
#[derive(Clone, Debug)]
pub struct CastlingDef {
    /// The side this castling move belongs to.
    pub color: Color,
    /// FEN letter of this right (`K`, `Q`, `k`, `q`).
    pub flag: char,
    /// King's start and target squares.
    pub king: (&'static str, &'static str),
    /// Partner's start and target squares.
    pub partner: (&'static str, &'static str),
    /// The partner's piece letter (uppercase).
    pub partner_piece: char,
    /// Squares that must be empty (besides the king's and partner's own).
    pub empty: &'static [&'static str],
    /// Squares the enemy must not attack (the king's start, crossed and target squares).
    pub safe: &'static [&'static str],
}

/// King's Leap Chess: the king's first move may also be a non-capturing two-square leap.
#[derive(Clone, Debug)]
pub struct KingLeapDef {
    /// For each colour: the king's start square and (target, leapt-over) pairs.
    pub leaps: [(&'static str, [(&'static str, &'static str); 3]); 2],
}

/// Promotion: where, and to what.
#[derive(Clone, Debug)]
pub struct PromotionDef {
    /// 1-based rank where White pawns promote (Black: the mirrored rank).
    pub rank: usize,
    /// Letters a pawn may always promote to.
    pub choices: &'static str,
    /// Letters a pawn may promote to only while one is in its side's pool of captured
    /// pieces (Great Shatranj); each such promotion takes one from the pool.
    pub from_pool: &'static str,
}

/// Drops from the hand (Historia's deployment).
#[derive(Clone, Debug)]
pub struct DropDef {
    /// Squares each side may drop on.
    pub zones: [&'static [&'static str]; 2],
    /// A side with anything in hand must drop (no board moves until the hand is empty).
    pub must_drop: bool,
    /// Letter of the piece whose drops follow Historia's opposite-coloured bishops rule.
    pub bishop_colour_rule: Option<char>,
}

/// What a position with no legal move means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoMoveRule {
    /// Checkmate loses, stalemate draws.
    MateLosesStalemateDraws,
    /// The side with no legal move loses, in check or not (Historia).
    SideToMoveLoses,
}

/// Rules about a side reduced to its bare king.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BareKingRule {
    /// No such rule.
    None,
    /// Great Shatranj: at the start of a turn, if the opponent is bare and the mover is not,
    /// the mover wins; both bare draws.
    ShatranjWin,
    /// Shatar's Robado: as soon as either side is bare (hand included), the game is drawn.
    RobadoDraw,
}

/// Which material draws automatically.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaterialRule {
    /// FIDE dead positions: K v K, K+minor v K, bishops all on one colour.
    Fide,
    /// Only two bare kings with empty hands.
    BareKingsOnly,
    /// No material draw (another rule covers it).
    None,
}

/// How a game ends, beyond piece movement.
#[derive(Clone, Debug)]
pub struct EndRules {
    /// What having no legal move means.
    pub no_move: NoMoveRule,
    /// Plies without capture or pawn move that draw (100 = the 50-move rule).
    pub n_move_plies: u32,
    /// Bare-king rule.
    pub bare_king: BareKingRule,
    /// Material draws.
    pub material: MaterialRule,
    /// Shatar's mate rules, if the game has them.
    pub shatar_mates: Option<ShatarMates>,
}

/// Old Shatar's mate rules: a mate given by the `forbidden_sole_mater` alone loses for
/// the side that gives it; a mate whose series of checks contains no *shak* (a check by
/// one of `shak_pieces`) is a draw (Niol).
#[derive(Clone, Copy, Debug)]
pub struct ShatarMates {
    /// Letters of the pieces whose check is a shak.
    pub shak_pieces: &'static str,
    /// Letter of the piece that may not mate alone.
    pub forbidden_sole_mater: char,
}

/// How sako describes a game XBoard does not know itself: the `setup` and `piece` lines
/// it sends after `variant NAME` (engine-tests/protocol/xboard-notes.md records the XBoard
/// tests behind every value).
#[derive(Clone, Debug)]
pub struct XboardDef {
    /// White's half of XBoard's piece table: our letter for each of XBoard's piece images,
    /// in XBoard's order, `.` for an image not used, the king last. Black's half is the
    /// same in lowercase.
    pub piece_table: &'static str,
    /// What follows `FILESxRANKS+` in the `setup` line: the holdings size and the parent
    /// variant (`0_fairy`; `7_bughouse` for Historia's hands; `7_seirawan` for gating).
    pub holdings: &'static str,
    /// The castling field of the start FEN as XBoard needs it, where it differs from ours
    /// (`Ee`, unmoved kings, so that XBoard lets the Hia gate).
    pub castling_field: Option<&'static str>,
    /// The pieces described in `piece X& BETZA` lines, in order: a letter, and XBoard's
    /// Betza where it is not the piece's own (the castling `KisO2`, the King's Leap
    /// `KimD`), else `None`.
    pub pieces: &'static [(char, Option<&'static str>)],
}

/// How a game's SAN is written (docs/rules/README.md#san), for games whose moves a
/// reader cannot find from the short standard form. The default is the standard form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SanStyle {
    /// Every piece move names its origin square (`Af1g1`, `Bh8xi7`): for games whose
    /// moves depend on the square (Chesquerque's points), which XBoard cannot be told,
    /// so that it cannot find the piece of a short `Bi7`. Pawn moves stay short.
    pub piece_origin: bool,
    /// Castling is written as the king's move with its origin (`Ke1h1`, `Ke9b9`), which
    /// XBoard reads as the castling, where XBoard's `O-O`/`O-O-O` do not name the
    /// castlings as sako's do. The words are still read: each its own castling as
    /// before, or the side's only legal castling when its own is not legal.
    pub castle_as_king_move: bool,
}

/// A game: all the data that defines it.
#[derive(Clone, Debug)]
pub struct VariantDef {
    /// Name used on the command line and in the protocols.
    pub name: &'static str,
    /// One-line description.
    pub description: &'static str,
    /// Board size and topology.
    pub geometry: Geometry,
    /// Piece types; the index in this list is the piece type number.
    pub pieces: Vec<PieceDef>,
    /// Start position.
    pub start_fen: &'static str,
    /// Castling moves.
    pub castling: Vec<CastlingDef>,
    /// King's leap (King's Leap Chess), kept in the FEN castling field.
    pub king_leap: Option<KingLeapDef>,
    /// 1-based rank of White's pawns that may make their initial (double-step) moves.
    pub pawn_initial_rank: usize,
    /// Pawns may capture en passant after a double step.
    pub en_passant: bool,
    /// Promotion rule.
    pub promotion: PromotionDef,
    /// Drops, if the game has them.
    pub drops: Option<DropDef>,
    /// Letter of a piece placed from the hand on the square a king leaves (Shatar's Hia).
    pub gating: Option<char>,
    /// Letter of a piece whose field of influence restricts enemy sliders (the Hia).
    pub field: Option<char>,
    /// Captured pieces go to their owner's promotion pool (Great Shatranj).
    pub captures_to_pool: bool,
    /// Letters that may appear in hands in a FEN but are not kept (Great's Soldiers, pawns).
    pub ignored_in_hand: &'static str,
    /// Castling letters in a FEN are accepted and ignored (games without castling).
    pub ignore_castling_field: bool,
    /// Game-end rules.
    pub end: EndRules,
    /// The built-in evaluation tables (`eval-tables/<name>.txt`, embedded).
    pub eval_table: &'static str,
    /// How XBoard is told about the game (`None`: XBoard knows it by name).
    pub xboard: Option<XboardDef>,
    /// How the game's SAN is written where the standard short form does not suit it.
    pub san: SanStyle,
}

/// The embedded text of `eval-tables/<name>.txt`.
macro_rules! eval_table {
    ($name:literal) => {
        include_str!(concat!("../../eval-tables/", $name, ".txt"))
    };
}

const CHESS: Geometry = Geometry {
    files: 8,
    ranks: 8,
    topology: Topology::Full,
};

const FIDE_END: EndRules = EndRules {
    no_move: NoMoveRule::MateLosesStalemateDraws,
    n_move_plies: 100,
    bare_king: BareKingRule::None,
    material: MaterialRule::Fide,
    shatar_mates: None,
};

fn fide_castling(partner_k: char, partner_q: char) -> Vec<CastlingDef> {
    vec![
        CastlingDef {
            color: Color::White,
            flag: 'K',
            king: ("e1", "g1"),
            partner: ("h1", "f1"),
            partner_piece: partner_k,
            empty: &["f1", "g1"],
            safe: &["e1", "f1", "g1"],
        },
        CastlingDef {
            color: Color::White,
            flag: 'Q',
            king: ("e1", "c1"),
            partner: ("a1", "d1"),
            partner_piece: partner_q,
            empty: &["b1", "c1", "d1"],
            safe: &["e1", "d1", "c1"],
        },
        CastlingDef {
            color: Color::Black,
            flag: 'k',
            king: ("e8", "g8"),
            partner: ("h8", "f8"),
            partner_piece: partner_k,
            empty: &["f8", "g8"],
            safe: &["e8", "f8", "g8"],
        },
        CastlingDef {
            color: Color::Black,
            flag: 'q',
            king: ("e8", "c8"),
            partner: ("a8", "d8"),
            partner_piece: partner_q,
            empty: &["b8", "c8", "d8"],
            safe: &["e8", "d8", "c8"],
        },
    ]
}

fn chess_pieces() -> Vec<PieceDef> {
    vec![
        PieceDef::pawn("fmWfcFifmnD"),
        PieceDef::new('N', "knight", "N"),
        PieceDef::new('B', "bishop", "B"),
        PieceDef::new('R', "rook", "R"),
        PieceDef::new('Q', "queen", "Q"),
        PieceDef::king('K', "K"),
    ]
}

fn chancellor_pieces() -> Vec<PieceDef> {
    let mut p = chess_pieces();
    p.insert(5, PieceDef::new('C', "chancellor", "RN"));
    p
}

const NO_DROPS: Option<DropDef> = None;

fn normal() -> VariantDef {
    VariantDef {
        name: "normal",
        description: "FIDE chess",
        geometry: CHESS,
        pieces: chess_pieces(),
        start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        castling: fide_castling('R', 'R'),
        king_leap: None,
        pawn_initial_rank: 2,
        en_passant: true,
        promotion: PromotionDef {
            rank: 8,
            choices: "QRBN",
            from_pool: "",
        },
        drops: NO_DROPS,
        gating: None,
        field: None,
        captures_to_pool: false,
        ignored_in_hand: "",
        ignore_castling_field: false,
        end: FIDE_END,
        eval_table: eval_table!("normal"),
        xboard: None,
        san: SanStyle::default(),
    }
}

fn chancellor() -> VariantDef {
    VariantDef {
        name: "chancellor",
        description: "Paulowich's Chancellor Chess: a chancellor (R+N) in the corner, castling with the corner queen or chancellor",
        pieces: chancellor_pieces(),
        start_fen: "cnbrkbnq/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w KQkq - 0 1",
        castling: fide_castling('Q', 'C'),
        promotion: PromotionDef {
            rank: 8,
            choices: "QCRBN",
            from_pool: "",
        },
        eval_table: eval_table!("chancellor"),
        xboard: Some(XboardDef {
            piece_table: "PNBRQ...CK",
            holdings: "0_fairy",
            castling_field: None,
            pieces: &[('C', None), ('K', Some("KisO2"))],
        }),
        ..normal()
    }
}

fn chancellorx() -> VariantDef {
    let mut castling = fide_castling('Q', 'C');
    castling.truncate(2);
    castling.push(CastlingDef {
        color: Color::Black,
        flag: 'k',
        king: ("d8", "f8"),
        partner: ("h8", "e8"),
        partner_piece: 'C',
        empty: &["e8", "f8", "g8"],
        safe: &["d8", "e8", "f8"],
    });
    castling.push(CastlingDef {
        color: Color::Black,
        flag: 'q',
        king: ("d8", "b8"),
        partner: ("a8", "c8"),
        partner_piece: 'Q',
        empty: &["b8", "c8"],
        safe: &["d8", "c8", "b8"],
    });
    VariantDef {
        name: "chancellorx",
        description: "Paulowich's Chancellor Chess, crosswise setup (Black's array reversed, kings on e1 and d8)",
        start_fen: "qnbkrbnc/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w KQkq - 0 1",
        castling,
        eval_table: eval_table!("chancellorx"),
        ..chancellor()
    }
}

fn kingsleap() -> VariantDef {
    VariantDef {
        name: "kingsleap",
        description: "King's Leap Chess: Chancellor Chess without castling; the king's first move may leap two squares",
        castling: Vec::new(),
        king_leap: Some(KingLeapDef {
            leaps: [
                ("e1", [("c1", "d1"), ("g1", "f1"), ("e3", "e2")]),
                ("e8", [("c8", "d8"), ("g8", "f8"), ("e6", "e7")]),
            ],
        }),
        eval_table: eval_table!("kingsleap"),
        xboard: Some(XboardDef {
            piece_table: "PNBRQ...CK",
            holdings: "0_fairy",
            castling_field: None,
            pieces: &[('C', None), ('K', Some("KimD"))],
        }),
        ..chancellor()
    }
}

fn great() -> VariantDef {
    VariantDef {
        name: "great",
        description: "Great Shatranj (XBoard version): 10x8, short-range compound leapers, promotion to captured pieces or Soldier",
        geometry: Geometry {
            files: 10,
            ranks: 8,
            topology: Topology::Full,
        },
        pieces: vec![
            PieceDef::pawn("fmWfcF"),
            PieceDef::new('N', "knight", "N"),
            PieceDef::new('E', "elephant", "FA"),
            PieceDef::new('W', "woody", "WD"),
            PieceDef::new('S', "soldier", "K"),
            PieceDef::new('G', "general", "WDFA"),
            PieceDef::new('M', "minister", "WDN"),
            PieceDef::new('H', "high priestess", "FAN"),
            PieceDef::king('K', "K"),
        ],
        start_fen: "wnegkmhenw/pppppppppp/10/10/10/10/PPPPPPPPPP/WNEGKMHENW w - - 0 1",
        castling: Vec::new(),
        king_leap: None,
        pawn_initial_rank: 2,
        en_passant: false,
        promotion: PromotionDef {
            rank: 8,
            choices: "S",
            from_pool: "GMHENW",
        },
        drops: NO_DROPS,
        gating: None,
        field: None,
        captures_to_pool: true,
        ignored_in_hand: "SP",
        ignore_castling_field: true,
        end: EndRules {
            no_move: NoMoveRule::MateLosesStalemateDraws,
            n_move_plies: 100,
            bare_king: BareKingRule::ShatranjWin,
            material: MaterialRule::None,
            shatar_mates: None,
        },
        eval_table: eval_table!("great"),
        xboard: None,
        san: SanStyle::default(),
    }
}

fn historia() -> VariantDef {
    VariantDef {
        name: "historia",
        description: "Historia Ŝako: pieces deployed by drops behind the pawns, elephants, semi-mad queen, stalemate wins",
        geometry: CHESS,
        pieces: vec![
            PieceDef::pawn("fmWfcF"),
            PieceDef::new('E', "elephant", "FvW"),
            PieceDef::new('N', "knight", "N"),
            PieceDef::new('B', "bishop", "B"),
            PieceDef::new('R', "rook", "R"),
            PieceDef::new('Q', "queen", "BW"),
            PieceDef::king('K', "K"),
        ],
        start_fen: "8/4pppp/pppp4/8/8/4PPPP/PPPP4/8[KQRRBBNNEEkqrrbbnnee] w - - 0 1",
        castling: Vec::new(),
        king_leap: None,
        pawn_initial_rank: 2,
        en_passant: false,
        promotion: PromotionDef {
            rank: 7,
            choices: "ENB",
            from_pool: "",
        },
        drops: Some(DropDef {
            zones: [
                &[
                    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "e2", "f2", "g2", "h2",
                ],
                &[
                    "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8", "a7", "b7", "c7", "d7",
                ],
            ],
            must_drop: true,
            bishop_colour_rule: Some('B'),
        }),
        gating: None,
        field: None,
        captures_to_pool: false,
        ignored_in_hand: "",
        ignore_castling_field: true,
        end: EndRules {
            no_move: NoMoveRule::SideToMoveLoses,
            n_move_plies: 128,
            bare_king: BareKingRule::None,
            material: MaterialRule::BareKingsOnly,
            shatar_mates: None,
        },
        eval_table: eval_table!("historia"),
        xboard: Some(XboardDef {
            piece_table: "PNBRQ.EK",
            holdings: "7_bughouse",
            castling_field: None,
            pieces: &[('Q', None), ('E', None), ('P', None)],
        }),
        san: SanStyle::default(),
    }
}

fn shatar_pieces(with_hia: bool) -> Vec<PieceDef> {
    let mut p = vec![
        PieceDef::pawn("fmWfcF"),
        PieceDef::new('N', "knight", "N"),
        PieceDef::new('B', "bishop", "B"),
        PieceDef::new('R', "rook", "R"),
        PieceDef::new('Q', "berse", "RF"),
        PieceDef::king('K', "K"),
    ];
    if with_hia {
        p.push(PieceDef::new('H', "hia", "Q2").without_check());
    }
    p
}

fn shatarhia() -> VariantDef {
    VariantDef {
        name: "shatarhia",
        description: "Shatar, Old 1 Hia: Mongolian chess with a bodyguard placed where the king first stood, whose field stops enemy sliders",
        geometry: CHESS,
        pieces: shatar_pieces(true),
        start_fen: "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR[Hh] w - - 0 1",
        castling: Vec::new(),
        king_leap: None,
        pawn_initial_rank: 2,
        en_passant: false,
        promotion: PromotionDef {
            rank: 8,
            choices: "Q",
            from_pool: "",
        },
        drops: NO_DROPS,
        gating: Some('H'),
        field: Some('H'),
        captures_to_pool: false,
        ignored_in_hand: "",
        ignore_castling_field: true,
        end: EndRules {
            no_move: NoMoveRule::MateLosesStalemateDraws,
            n_move_plies: 100,
            bare_king: BareKingRule::RobadoDraw,
            material: MaterialRule::None,
            shatar_mates: Some(ShatarMates {
                shak_pieces: "QRN",
                forbidden_sole_mater: 'N',
            }),
        },
        eval_table: eval_table!("shatarhia"),
        xboard: Some(XboardDef {
            piece_table: "PNBRQ..HK",
            holdings: "7_seirawan",
            castling_field: Some("Ee"),
            pieces: &[('Q', None), ('H', None), ('K', None), ('P', None)],
        }),
        san: SanStyle::default(),
    }
}

fn shatar() -> VariantDef {
    VariantDef {
        name: "shatar",
        description: "Shatar (Mongolian chess, Bodlaender's rules) without the Hia",
        pieces: shatar_pieces(false),
        start_fen: "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w - - 0 1",
        gating: None,
        field: None,
        eval_table: eval_table!("shatar"),
        xboard: Some(XboardDef {
            piece_table: "PNBRQK",
            holdings: "0_fairy",
            castling_field: None,
            pieces: &[('Q', None), ('K', None), ('P', None)],
        }),
        ..shatarhia()
    }
}

fn chesquerque() -> VariantDef {
    VariantDef {
        name: "chesquerque",
        description:
            "Chesquerque: chess on the 9x9 alquerque grid; moves depend on the point; lame knights",
        geometry: Geometry {
            files: 9,
            ranks: 9,
            topology: Topology::Alquerque,
        },
        pieces: vec![
            PieceDef::pawn("fWifmnD").on_diagonal_points("fmWfcFifmnD"),
            PieceDef::new('N', "knight", "t[WF]").on_diagonal_points("t[FW]"),
            PieceDef::new('B', "bishop", "W").on_diagonal_points("BW"),
            PieceDef::new('R', "rook", "R").on_diagonal_points("RF"),
            PieceDef::new('Q', "queen", "R").on_diagonal_points("RB"),
            PieceDef::new('A', "archbishop", "Wt[WF]").on_diagonal_points("BWt[FW]"),
            PieceDef::king('K', "W").on_diagonal_points("K"),
        ],
        start_fen: "rnbqkabnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w KQkq - 0 1",
        castling: vec![
            CastlingDef {
                color: Color::White,
                flag: 'K',
                king: ("e1", "h1"),
                partner: ("i1", "g1"),
                partner_piece: 'R',
                empty: &["f1", "g1", "h1"],
                safe: &["e1", "f1", "g1", "h1"],
            },
            CastlingDef {
                color: Color::White,
                flag: 'Q',
                king: ("e1", "b1"),
                partner: ("a1", "c1"),
                partner_piece: 'R',
                empty: &["b1", "c1", "d1"],
                safe: &["e1", "d1", "c1", "b1"],
            },
            CastlingDef {
                color: Color::Black,
                flag: 'k',
                king: ("e9", "h9"),
                partner: ("i9", "g9"),
                partner_piece: 'R',
                empty: &["f9", "g9", "h9"],
                safe: &["e9", "f9", "g9", "h9"],
            },
            CastlingDef {
                color: Color::Black,
                flag: 'q',
                king: ("e9", "b9"),
                partner: ("a9", "c9"),
                partner_piece: 'R',
                empty: &["b9", "c9", "d9"],
                safe: &["e9", "d9", "c9", "b9"],
            },
        ],
        king_leap: None,
        pawn_initial_rank: 2,
        en_passant: true,
        promotion: PromotionDef {
            rank: 9,
            choices: "QRBNA",
            from_pool: "",
        },
        drops: NO_DROPS,
        gating: None,
        field: None,
        captures_to_pool: false,
        ignored_in_hand: "",
        ignore_castling_field: false,
        end: EndRules {
            no_move: NoMoveRule::MateLosesStalemateDraws,
            n_move_plies: 100,
            bare_king: BareKingRule::None,
            material: MaterialRule::BareKingsOnly,
            shatar_mates: None,
        },
        eval_table: eval_table!("chesquerque"),
        xboard: Some(XboardDef {
            piece_table: "PNBRQ..AK",
            holdings: "0_fairy",
            castling_field: None,
            pieces: &[('K', Some("KisO3"))],
        }),
        san: SanStyle {
            piece_origin: true,
            castle_as_king_move: true,
        },
    }
}

/// The definition of every variant, in the order `sako variants` lists them. The index
/// is the variant id; adding a game means adding its function here.
const DEFINITIONS: &[fn() -> VariantDef] = &[
    normal,
    chancellor,
    chancellorx,
    kingsleap,
    great,
    historia,
    shatarhia,
    shatar,
    chesquerque,
];

/// Every variant, in the order `sako variants` lists them. The index is the variant id.
pub fn all_variants() -> &'static [VariantDef] {
    use once_cell::sync::Lazy;
    static ALL: Lazy<Vec<VariantDef>> = Lazy::new(|| DEFINITIONS.iter().map(|f| f()).collect());
    &ALL
}

/// Number of variants (the length of the definition list).
pub const VARIANT_COUNT: usize = DEFINITIONS.len();

/// Finds a variant id by name (also accepts `chess` and `standard` for `normal`,
/// `greatshatranj` for `great`, `chancellor-crosswise` for `chancellorx`).
pub fn variant_id(name: &str) -> Option<usize> {
    let name = name.trim().to_ascii_lowercase();
    let name = match name.as_str() {
        "chess" | "standard" => "normal",
        "greatshatranj" => "great",
        "chancellor-crosswise" => "chancellorx",
        other => other,
    };
    all_variants().iter().position(|v| v.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_is_findable_and_counted() {
        assert_eq!(all_variants().len(), VARIANT_COUNT);
        for (i, v) in all_variants().iter().enumerate() {
            assert_eq!(variant_id(v.name), Some(i));
        }
        assert_eq!(variant_id("chess"), Some(0));
        assert_eq!(variant_id("nonsense"), None);
    }

    #[test]
    fn every_variant_embeds_its_own_eval_table() {
        // A variant built with `..other()` must not inherit the other's table.
        for v in all_variants() {
            let header = format!("# sako evaluation tables: {} (", v.name);
            assert!(v.eval_table.starts_with(&header), "{}", v.name);
        }
    }
}
