//! A self-contained HTML page for a finished (or running) bracket: the draw as a tree, one section
//! per series with its games, and a picture of every game's final position.
//!
//! The page needs nothing but a browser: the style sheet and the boards (SVG) are inline, there is
//! no script, no font or image to fetch, and no link leaves the page.

use super::bracket::{Bracket, Entrant, Series};
use super::record::GameRecord;
use crate::game::Color;
use std::fmt::Write;

/// Escapes `&`, `<`, `>`, `"` and `'` so that `s` can go into HTML (or SVG) text and attributes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Distance between two board lines, in SVG units.
const CELL: usize = 30;
/// Room around the grid for the coordinates.
const MARGIN: usize = 36;

/// Star points drawn on the grid, by board size (purely to help the eye).
fn star_points(size: usize) -> Vec<(usize, usize)> {
    let lines: &[usize] = match size {
        9 => &[2, 6],
        13 => &[3, 9],
        15 => &[3, 11],
        19 => &[3, 9, 15],
        _ => &[],
    };
    let mut points: Vec<(usize, usize)> = lines
        .iter()
        .flat_map(|&x| lines.iter().map(move |&y| (x, y)))
        .collect();
    if size % 2 == 1 && size >= 9 {
        points.push((size / 2, size / 2));
    }
    points
}

/// An SVG picture of a game's final position: grid, coordinates 0..N-1 on all four sides, every
/// stone numbered with its move number (from 1), and a red ring around the last move.
///
/// Markup that tests and style sheets can rely on: each stone is a `<circle class="stone black">`
/// or `<circle class="stone white">`, its number a `<text class="num">`, the last move a
/// `<circle class="last-move">`. The SVG has no `xmlns` attribute because it is meant to sit
/// inline in an HTML page (which keeps the page free of any URL); add
/// `xmlns="http://www.w3.org/2000/svg"` to save it as a stand-alone file.
pub fn board_svg(rec: &GameRecord) -> String {
    // A record with a nonsense size still draws: grow the board to hold every move.
    let max_coord = rec
        .moves
        .iter()
        .map(|m| m.x.max(m.y) + 1)
        .max()
        .unwrap_or(0);
    let n = rec.board_size.max(1).max(max_coord.min(64));
    let span = (n - 1) * CELL;
    let side = span + 2 * MARGIN;
    let pos = |i: usize| MARGIN + i * CELL;

    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg class="board" viewBox="0 0 {side} {side}" width="{side}" height="{side}" role="img" aria-label="{label}">"#,
        label = escape(&format!(
            "Final position: {} (black) vs {} (white), {} moves",
            rec.black,
            rec.white,
            rec.moves.len()
        )),
    );
    let _ = write!(
        s,
        "<title>{} (black) vs {} (white): {}</title>",
        escape(&rec.black),
        escape(&rec.white),
        rec.result_text()
    );
    let _ = write!(
        s,
        r##"<rect x="0" y="0" width="{side}" height="{side}" rx="6" fill="#dcb35c"/>"##
    );

    // Grid.
    let _ = write!(s, r##"<g stroke="#3b2a12" stroke-width="1">"##);
    for i in 0..n {
        let p = pos(i);
        let (a, b) = (MARGIN, MARGIN + span);
        let _ = write!(
            s,
            r#"<line x1="{a}" y1="{p}" x2="{b}" y2="{p}"/><line x1="{p}" y1="{a}" x2="{p}" y2="{b}"/>"#
        );
    }
    s.push_str("</g>");
    for (x, y) in star_points(n) {
        let _ = write!(
            s,
            r##"<circle class="star" cx="{}" cy="{}" r="3" fill="#3b2a12"/>"##,
            pos(x),
            pos(y)
        );
    }

    // Coordinates: columns above and below, rows left and right.
    let _ = write!(
        s,
        r##"<g class="coord" font-family="sans-serif" font-size="11" fill="#3b2a12" text-anchor="middle" dominant-baseline="central">"##
    );
    let near = MARGIN / 3;
    let far = side - near;
    for i in 0..n {
        let p = pos(i);
        let _ = write!(
            s,
            r#"<text x="{p}" y="{near}">{i}</text><text x="{p}" y="{far}">{i}</text><text x="{near}" y="{p}">{i}</text><text x="{far}" y="{p}">{i}</text>"#
        );
    }
    s.push_str("</g>");

    // Stones, in move order (a later stone on the same point covers an earlier one).
    let radius = CELL as f64 * 0.44;
    for (k, m) in rec.moves.iter().enumerate() {
        if m.x >= n || m.y >= n {
            continue;
        }
        let (cx, cy) = (pos(m.x), pos(m.y));
        let (fill, stroke, ink) = match m.color {
            Color::Black => ("#141414", "#000000", "#ffffff"),
            Color::White => ("#f7f7f2", "#3a3a3a", "#111111"),
        };
        let number = k + 1;
        let font = match number {
            0..=99 => 12,
            100..=999 => 10,
            _ => 8,
        };
        let _ = write!(
            s,
            r#"<circle class="stone {color}" cx="{cx}" cy="{cy}" r="{radius:.1}" fill="{fill}" stroke="{stroke}" stroke-width="1"/><text class="num" x="{cx}" y="{cy}" fill="{ink}" font-family="sans-serif" font-size="{font}" font-weight="600" text-anchor="middle" dominant-baseline="central">{number}</text>"#,
            color = m.color.name(),
        );
    }
    if let Some(last) = rec.moves.last().filter(|m| m.x < n && m.y < n) {
        let _ = write!(
            s,
            r##"<circle class="last-move" cx="{}" cy="{}" r="{:.1}" fill="none" stroke="#e0201b" stroke-width="2.5"/>"##,
            pos(last.x),
            pos(last.y),
            radius + 2.0
        );
    }
    s.push_str("</svg>");
    s
}

/// The name people know a game by.
fn game_display_name(game: &str) -> String {
    match game {
        "nogo" => "NoGo".to_string(),
        "gomoku" => "Gomoku".to_string(),
        "connect6" => "Connect6".to_string(),
        other => other.to_string(),
    }
}

/// "Final", "Semi-final", "Quarter-final", or "Round r" further back.
fn round_name(round: usize, total: usize) -> String {
    match total.saturating_sub(round) {
        0 => "Final".to_string(),
        1 => "Semi-final".to_string(),
        2 => "Quarter-final".to_string(),
        _ => format!("Round {round}"),
    }
}

fn entrant(b: &Bracket, i: usize) -> Option<&Entrant> {
    b.entrants.get(i)
}

/// "(seed) name", escaped.
fn entrant_label(b: &Bracket, i: usize) -> String {
    match entrant(b, i) {
        Some(e) => format!("({}) {}", e.seed, escape(&e.name)),
        None => format!("(?) entrant #{i}"),
    }
}

/// What an empty slot means: a bye in the first round or beside a decided series, otherwise a
/// place still waiting for its winner.
fn empty_slot_text(s: &Series) -> &'static str {
    if s.round <= 1 || s.winner.is_some() {
        "bye"
    } else {
        "\u{2014}"
    }
}

fn anchor(s: &Series) -> String {
    format!("r{}-s{}", s.round, s.slot)
}

/// One line of a series box: seed, name, games won.
fn series_side(out: &mut String, b: &Bracket, s: &Series, side: usize) {
    let who = if side == 0 { s.a } else { s.b };
    match who {
        Some(i) => {
            let won = s.winner == Some(i);
            let lost = s.winner.is_some() && !won;
            let row_class = if won {
                "entrant won"
            } else if lost {
                "entrant lost"
            } else {
                "entrant"
            };
            let (seed, name) = match entrant(b, i) {
                Some(e) => (e.seed.to_string(), escape(&e.name)),
                None => ("?".to_string(), format!("entrant #{i}")),
            };
            // A bye has no score to show.
            let wins = if s.a.is_some() && s.b.is_some() {
                s.wins[side].to_string()
            } else {
                String::new()
            };
            let _ = write!(
                out,
                r#"<div class="{row_class}"><span class="seed">({seed})</span> <span class="{}" title="{name}">{name}</span><span class="wins">{wins}</span></div>"#,
                if won { "winner" } else { "name" },
            );
        }
        None => {
            let _ = write!(
                out,
                r#"<div class="entrant empty"><span class="name">{}</span></div>"#,
                empty_slot_text(s)
            );
        }
    }
}

/// The box for one series in the bracket tree.
fn series_box(out: &mut String, b: &Bracket, s: &Series) {
    let _ = write!(out, r#"<div class="series" id="box-{}">"#, anchor(s));
    series_side(out, b, s, 0);
    series_side(out, b, s, 1);
    let status = if s.games.is_empty() {
        match (s.winner, s.a.is_some() && s.b.is_some()) {
            (Some(_), _) => "through on a bye".to_string(),
            (None, true) => "to play".to_string(),
            (None, false) => "waiting".to_string(),
        }
    } else {
        let mut t = format!(
            "{}-{} &middot; best of {} &middot; <a href=\"#{}\">{} game{}</a>",
            s.wins[0],
            s.wins[1],
            s.best_of,
            anchor(s),
            s.games.len(),
            if s.games.len() == 1 { "" } else { "s" }
        );
        if s.winner.is_none() {
            t.push_str(" &middot; in progress");
        }
        t
    };
    let _ = write!(out, r#"<div class="meta">{status}</div></div>"#);
}

/// Thinking time in seconds, as shown in tables.
fn seconds(ms: u64) -> String {
    format!("{:.2}", ms as f64 / 1000.0)
}

/// The section listing a series' games, with a board per game.
fn series_games(out: &mut String, b: &Bracket, s: &Series, total_rounds: usize) {
    let side_text = |who: Option<usize>| match who {
        Some(i) => entrant_label(b, i),
        None => empty_slot_text(s).to_string(),
    };
    let _ = write!(
        out,
        r#"<section class="games" id="{}"><h3>{} &middot; match {}: {} vs {} <span class="score">{}-{}</span> <span class="bestof">(best of {})</span></h3>"#,
        anchor(s),
        round_name(s.round, total_rounds),
        s.slot + 1,
        side_text(s.a),
        side_text(s.b),
        s.wins[0],
        s.wins[1],
        s.best_of
    );
    if let Some(w) = s.winner {
        let _ = write!(
            out,
            r#"<p class="through">Through: <span class="winner">{}</span></p>"#,
            entrant_label(b, w)
        );
    }
    out.push_str(
        "<table class=\"game-table\"><thead><tr><th>#</th><th>Black</th><th>White</th>\
         <th>Result</th><th>Reason</th><th class=\"n\">Moves</th><th class=\"n\">Black time (s)</th>\
         <th class=\"n\">White time (s)</th><th class=\"n\">Opening</th></tr></thead><tbody>",
    );
    for (k, g) in s.games.iter().enumerate() {
        let cls = |c: Color| {
            if g.winner == Some(c) {
                " class=\"won\""
            } else {
                ""
            }
        };
        let _ = write!(
            out,
            "<tr><td>{}</td><td{}>{}</td><td{}>{}</td><td class=\"result\">{}</td><td>{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            k + 1,
            cls(Color::Black),
            escape(&g.black),
            cls(Color::White),
            escape(&g.white),
            g.result_text(),
            escape(&g.reason.describe()),
            g.moves.len(),
            seconds(g.time_used_ms[0]),
            seconds(g.time_used_ms[1]),
            g.opening.map_or("\u{2014}".to_string(), |o| o.to_string())
        );
    }
    out.push_str("</tbody></table><div class=\"boards\">");
    for (k, g) in s.games.iter().enumerate() {
        let _ = write!(
            out,
            "<figure class=\"game\">{}<figcaption><b>Game {}</b>: \
             <span class=\"bk\">&#9679;</span> {} vs <span class=\"wt\">&#9675;</span> {}, \
             <b>{}</b><br>{} &middot; {} moves</figcaption></figure>",
            board_svg(g),
            k + 1,
            escape(&g.black),
            escape(&g.white),
            g.result_text(),
            escape(&g.reason.describe()),
            g.moves.len()
        );
    }
    out.push_str("</div></section>");
}

const STYLE: &str = r#"
:root { --ink: #1d232b; --muted: #6b7480; --line: #9aa5b1; --accent: #1f6f43; --panel: #ffffff; }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px 32px 48px; background: #f1f3f6; color: var(--ink);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { margin: 0 0 4px; font-size: 28px; }
h2 { margin: 32px 0 12px; font-size: 21px; border-bottom: 2px solid #d5dae0; padding-bottom: 4px; }
h3 { margin: 0 0 8px; font-size: 17px; }
.sub { color: var(--muted); margin: 0 0 16px; }
#champion { display: inline-block; margin: 8px 0 16px; padding: 12px 22px; border-radius: 10px;
  background: linear-gradient(135deg, #fff4c2, #ffd966); border: 2px solid #d4a514;
  font-size: 22px; box-shadow: 0 2px 6px rgba(0,0,0,.12); }
#champion .label { display: block; font-size: 12px; letter-spacing: .12em; text-transform: uppercase; color: #7a5c00; }
#champion .winner { font-weight: 700; }
.no-champion { color: var(--muted); font-style: italic; }
.bracket { display: flex; align-items: stretch; overflow-x: auto; padding: 4px 0 12px; }
.round { display: flex; flex-direction: column; flex: 0 0 270px; }
.round-head { text-align: center; padding: 0 22px 8px; }
.round-head .rname { font-weight: 700; }
.round-head .rnum { display: block; color: var(--muted); font-size: 12px; }
.slots { flex: 1; display: flex; flex-direction: column; }
.match { flex: 1; display: flex; align-items: center; position: relative; padding: 8px 22px; }
.slots.out .match::after { content: ""; position: absolute; right: 0; width: 22px; border: 0 solid var(--line); border-right-width: 2px; }
.slots.out .match:nth-child(odd)::after { top: calc(50% - 1px); height: calc(50% + 1px); border-top-width: 2px; }
.slots.out .match:nth-child(even)::after { top: 0; height: calc(50% + 1px); border-bottom-width: 2px; }
.slots.in .match::before { content: ""; position: absolute; left: 0; top: calc(50% - 1px); width: 22px; border-top: 2px solid var(--line); }
.series { width: 100%; background: var(--panel); border: 1px solid #c9d0d8; border-radius: 8px;
  box-shadow: 0 1px 3px rgba(0,0,0,.08); overflow: hidden; }
.entrant { display: flex; align-items: center; gap: 4px; padding: 5px 10px; border-bottom: 1px solid #edf0f3; }
.entrant .seed { color: var(--muted); font-size: 13px; min-width: 2.2em; }
.entrant .name, .entrant .winner { flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.entrant .wins { font-variant-numeric: tabular-nums; font-weight: 600; min-width: 1.2em; text-align: right; }
.entrant.won { background: #e3f4e8; }
.entrant.won .winner, .entrant.won .wins { color: var(--accent); font-weight: 700; }
.entrant.lost { color: var(--muted); }
.entrant.empty { color: var(--muted); font-style: italic; }
.series .meta { padding: 3px 10px; font-size: 12px; color: var(--muted); background: #f7f8fa; }
a { color: #1f5fa8; text-decoration: none; }
a:hover { text-decoration: underline; }
table { border-collapse: collapse; background: var(--panel); font-size: 14px; }
th, td { padding: 4px 10px; border: 1px solid #d5dae0; text-align: left; vertical-align: top; }
th { background: #e8ecf0; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
td.won { font-weight: 700; color: var(--accent); }
td.result { font-weight: 600; white-space: nowrap; }
.games { margin: 0 0 28px; padding: 16px 18px; background: #fafbfc; border: 1px solid #d5dae0; border-radius: 10px; }
.games .score { color: var(--accent); }
.games .bestof { color: var(--muted); font-weight: 400; font-size: 14px; }
.through { margin: 0 0 10px; }
.through .winner { font-weight: 700; color: var(--accent); }
.boards { display: flex; flex-wrap: wrap; gap: 18px; margin-top: 14px; }
figure.game { margin: 0; padding: 10px; background: var(--panel); border: 1px solid #d5dae0; border-radius: 8px; }
figure.game svg { display: block; max-width: 100%; height: auto; }
figcaption { margin-top: 6px; font-size: 13px; max-width: 312px; }
.bk { color: #111; } .wt { color: #777; }
.field td.seed { text-align: right; }
.field code { font-size: 12px; word-break: break-all; }
footer { margin-top: 36px; color: var(--muted); font-size: 12px; }
"#;

/// The whole report page: title, champion, the bracket tree, the field, and every series' games
/// with a board per game. Everything taken from the bracket is escaped.
pub fn bracket_html(b: &Bracket) -> String {
    let total_rounds = b.rounds.len();
    let game_name = game_display_name(&b.game);
    let title = if b.title.trim().is_empty() {
        format!("{game_name} bracket")
    } else {
        b.title.clone()
    };
    let games_played: usize = b.rounds.iter().flatten().map(|s| s.games.len()).sum();
    let board_size = b
        .rounds
        .iter()
        .flatten()
        .flat_map(|s| s.games.iter())
        .map(|g| g.board_size)
        .next();

    let mut out = String::with_capacity(16_384 + games_played * 12_000);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(out, "<title>{}</title>", escape(&title));
    let _ = writeln!(out, "<style>{STYLE}</style>\n</head>\n<body>");

    let _ = writeln!(out, "<h1>{}</h1>", escape(&title));
    let mut sub = escape(&game_name);
    if let Some(n) = board_size {
        let _ = write!(sub, " {n}&times;{n}");
    }
    let _ = write!(
        sub,
        " &middot; {} entrant{} &middot; {} round{} &middot; {} game{} played",
        b.entrants.len(),
        if b.entrants.len() == 1 { "" } else { "s" },
        total_rounds,
        if total_rounds == 1 { "" } else { "s" },
        games_played,
        if games_played == 1 { "" } else { "s" },
    );
    let _ = writeln!(out, "<p class=\"sub\">{sub}</p>");

    match b.champion {
        Some(c) => {
            let _ = writeln!(
                out,
                "<div id=\"champion\"><span class=\"label\">Champion</span><span class=\"winner\">{}</span></div>",
                entrant_label(b, c)
            );
        }
        None => out.push_str("<p class=\"no-champion\">No champion yet.</p>\n"),
    }

    // The tree.
    out.push_str("<h2>Bracket</h2>\n<div class=\"bracket\">\n");
    for (r, round) in b.rounds.iter().enumerate() {
        let mut series: Vec<&Series> = round.iter().collect();
        series.sort_by_key(|s| s.slot);
        // Connectors only where each pair of boxes feeds exactly one box of the next round.
        let pairs_out = b
            .rounds
            .get(r + 1)
            .is_some_and(|next| !next.is_empty() && next.len() * 2 == round.len());
        let pairs_in = r > 0 && b.rounds[r - 1].len() == round.len() * 2 && !round.is_empty();
        let mut slots_class = String::from("slots");
        if pairs_out {
            slots_class.push_str(" out");
        }
        if pairs_in {
            slots_class.push_str(" in");
        }
        let _ = write!(
            out,
            "<div class=\"round\"><div class=\"round-head\"><span class=\"rname\">{}</span><span class=\"rnum\">round {} of {}</span></div><div class=\"{slots_class}\">",
            round_name(r + 1, total_rounds),
            r + 1,
            total_rounds
        );
        for s in series {
            out.push_str("<div class=\"match\">");
            series_box(&mut out, b, s);
            out.push_str("</div>");
        }
        out.push_str("</div></div>\n");
    }
    out.push_str("</div>\n");

    // The field.
    out.push_str("<h2>Entrants</h2>\n<table class=\"field\"><thead><tr><th>Seed</th><th>Name</th><th>Protocol</th><th>Command</th></tr></thead><tbody>");
    let mut field: Vec<(usize, &Entrant)> = b.entrants.iter().enumerate().collect();
    field.sort_by_key(|&(i, e)| (e.seed, i));
    for (i, e) in field {
        let name = if b.champion == Some(i) {
            format!("<span class=\"winner\">{}</span>", escape(&e.name))
        } else {
            escape(&e.name)
        };
        let _ = write!(
            out,
            "<tr><td class=\"seed\">{}</td><td>{name}</td><td>{}</td><td><code>{}</code></td></tr>",
            e.seed,
            escape(&e.protocol),
            escape(&e.command)
        );
    }
    out.push_str("</tbody></table>\n");

    // The games, round by round.
    out.push_str("<h2>Games</h2>\n");
    let mut any = false;
    for round in &b.rounds {
        let mut series: Vec<&Series> = round.iter().filter(|s| !s.games.is_empty()).collect();
        series.sort_by_key(|s| s.slot);
        for s in series {
            any = true;
            series_games(&mut out, b, s, total_rounds);
            out.push('\n');
        }
    }
    if !any {
        out.push_str("<p class=\"no-champion\">No games played yet.</p>\n");
    }

    out.push_str("<footer>Written by stonebrain's arena.</footer>\n</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::record::{EndReason, MoveRecord};

    /// Distinct points spread over a 9x9 board, in the order they are played.
    const POINTS: [(usize, usize); 14] = [
        (4, 4),
        (2, 2),
        (6, 6),
        (2, 6),
        (6, 2),
        (4, 2),
        (4, 6),
        (2, 4),
        (6, 4),
        (0, 0),
        (8, 8),
        (0, 8),
        (8, 0),
        (3, 5),
    ];

    fn game(black: &str, white: &str, moves: usize, winner: Option<Color>) -> GameRecord {
        let moves: Vec<MoveRecord> = POINTS
            .iter()
            .take(moves)
            .enumerate()
            .map(|(k, &(x, y))| MoveRecord {
                x,
                y,
                color: if k % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                millis: 120 + 37 * k as u64,
            })
            .collect();
        let black_ms = moves.iter().step_by(2).map(|m| m.millis).sum();
        let white_ms = moves.iter().skip(1).step_by(2).map(|m| m.millis).sum();
        GameRecord {
            game: "nogo".to_string(),
            board_size: 9,
            black: black.to_string(),
            white: white.to_string(),
            moves,
            winner,
            reason: match winner {
                Some(_) => EndReason::Rules("the side to move has no legal move".to_string()),
                None => EndReason::Crash("signal 9 <SIGKILL> & \"core\"".to_string()),
            },
            time_used_ms: [black_ms, white_ms],
            opening: None,
        }
    }

    fn entrant(name: &str, seed: u32) -> Entrant {
        Entrant {
            name: name.to_string(),
            command: format!("./bots/{name} --level 3 'quoted' && echo <done>"),
            protocol: "botzone".to_string(),
            seed,
        }
    }

    const EVIL: &str = "<b>&\"x\"";

    /// Four entrants, two rounds, every series finished: 6 games in all.
    fn four() -> Bracket {
        let entrants = vec![
            entrant("alpha", 1),
            entrant("beta", 2),
            entrant(EVIL, 3),
            entrant("delta", 4),
        ];
        let r1 = vec![
            Series {
                round: 1,
                slot: 0,
                a: Some(0),
                b: Some(3),
                best_of: 3,
                games: vec![
                    game("alpha", "delta", 10, Some(Color::Black)),
                    game("delta", "alpha", 11, Some(Color::White)),
                ],
                wins: [2, 0],
                winner: Some(0),
            },
            Series {
                round: 1,
                slot: 1,
                a: Some(1),
                b: Some(2),
                best_of: 3,
                games: vec![
                    game("beta", EVIL, 10, Some(Color::Black)),
                    game(EVIL, "beta", 12, Some(Color::Black)),
                    game("beta", EVIL, 9, Some(Color::White)),
                ],
                wins: [1, 2],
                winner: Some(2),
            },
        ];
        let r2 = vec![Series {
            round: 2,
            slot: 0,
            a: Some(0),
            b: Some(2),
            best_of: 1,
            games: vec![game(EVIL, "alpha", 13, Some(Color::White))],
            wins: [1, 0],
            winner: Some(0),
        }];
        Bracket {
            title: "Class NoGo cup".to_string(),
            game: "nogo".to_string(),
            entrants,
            rounds: vec![r1, r2],
            champion: Some(0),
        }
    }

    /// Three entrants: the top seed has a bye, one draw so far, the final still waiting.
    fn three() -> Bracket {
        let entrants = vec![entrant("alpha", 1), entrant("beta", 2), entrant("gamma", 3)];
        let r1 = vec![
            Series {
                round: 1,
                slot: 0,
                a: Some(0),
                b: None,
                best_of: 3,
                games: vec![],
                wins: [0, 0],
                winner: Some(0),
            },
            Series {
                round: 1,
                slot: 1,
                a: Some(1),
                b: Some(2),
                best_of: 3,
                games: vec![game("beta", "gamma", 10, None)],
                wins: [0, 0],
                winner: None,
            },
        ];
        let r2 = vec![Series {
            round: 2,
            slot: 0,
            a: Some(0),
            b: None,
            best_of: 3,
            games: vec![],
            wins: [0, 0],
            winner: None,
        }];
        Bracket {
            title: "Three-way".to_string(),
            game: "nogo".to_string(),
            entrants,
            rounds: vec![r1, r2],
            champion: None,
        }
    }

    #[test]
    fn escape_covers_the_five_characters() {
        assert_eq!(escape(EVIL), "&lt;b&gt;&amp;&quot;x&quot;");
        assert_eq!(escape("it's"), "it&#39;s");
        assert_eq!(escape("plain é"), "plain é");
    }

    #[test]
    fn page_has_the_tree_and_a_board_per_game() {
        let html = bracket_html(&four());
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.contains("<html"));
        assert_eq!(html.matches("class=\"bracket\"").count(), 1);
        assert_eq!(html.matches("class=\"round\"").count(), 2);
        assert_eq!(html.matches("class=\"series\"").count(), 3);
        assert_eq!(html.matches("<svg").count(), 6);
        assert_eq!(html.matches("<figure").count(), 6);
        assert!(html.contains("Semi-final"));
        assert!(html.contains(">Final<"));
        assert!(html.contains("best of 3"));
        assert!(html.contains("1-2"));
        assert!(html.contains("the side to move has no legal move"));
    }

    #[test]
    fn champion_is_shown() {
        let html = bracket_html(&four());
        assert_eq!(html.matches("id=\"champion\"").count(), 1);
        let at = html.find("id=\"champion\"").unwrap();
        let end = at + html[at..].find("</div>").unwrap();
        assert!(html[at..end].contains("(1) alpha"));
        assert!(html[at..end].contains("class=\"winner\""));
    }

    #[test]
    fn winners_are_marked() {
        let html = bracket_html(&four());
        // One winner per finished series box, one in the champion banner, one in the field,
        // one "Through" line per series with games.
        assert!(html.contains("<span class=\"winner\" title=\"alpha\">alpha</span>"));
        let evil = escape(EVIL);
        assert!(html.contains(&format!(
            "<span class=\"winner\" title=\"{evil}\">{evil}</span>"
        )));
        assert_eq!(html.matches("<div class=\"entrant won\">").count(), 3);
    }

    #[test]
    fn user_text_is_escaped() {
        let html = bracket_html(&four());
        assert!(!html.contains(EVIL));
        assert!(!html.contains("<b>&"));
        assert!(html.contains("&lt;b&gt;&amp;&quot;x&quot;"));
        // Commands and reasons too.
        assert!(!html.contains("<done>"));
        assert!(html.contains("&lt;done&gt;"));
        assert!(html.contains("&#39;quoted&#39;"));
        let draw = bracket_html(&three());
        assert!(!draw.contains("<SIGKILL>"));
        assert!(draw.contains("crashed: signal 9 &lt;SIGKILL&gt; &amp; &quot;core&quot;"));
    }

    #[test]
    fn page_is_offline() {
        for html in [bracket_html(&four()), bracket_html(&three())] {
            assert!(!html.contains("http://"));
            assert!(!html.contains("https://"));
            assert!(!html.contains("<script"));
            assert!(!html.contains("<link"));
            assert!(!html.contains("@import"));
            assert!(!html.contains("url("));
            assert!(!html.contains(" src="));
        }
    }

    #[test]
    fn board_has_every_stone_numbered_and_the_last_move_ringed() {
        let g = game("alpha", "delta", 10, Some(Color::Black));
        let svg = board_svg(&g);
        assert!(svg.starts_with("<svg"));
        assert!(svg.ends_with("</svg>"));
        assert_eq!(svg.matches("class=\"stone ").count(), 10);
        assert_eq!(svg.matches("class=\"stone black\"").count(), 5);
        assert_eq!(svg.matches("class=\"stone white\"").count(), 5);
        assert_eq!(svg.matches("class=\"num\"").count(), 10);
        for k in 1..=10 {
            assert!(svg.contains(&format!(">{k}</text>")), "move {k} label");
        }
        assert_eq!(svg.matches("class=\"last-move\"").count(), 1);
        // The ring sits on the last move: (0, 0) is the 10th point, drawn at the margin.
        let ring = &svg[svg.find("class=\"last-move\"").unwrap()..];
        assert!(ring.contains(&format!("cx=\"{MARGIN}\" cy=\"{MARGIN}\"")));
        // Labels contrast with their stones.
        assert!(svg.contains(
            "fill=\"#ffffff\" font-family=\"sans-serif\" font-size=\"12\" font-weight=\"600\" text-anchor=\"middle\" dominant-baseline=\"central\">1<"
        ));
        assert!(svg.contains(
            "fill=\"#111111\" font-family=\"sans-serif\" font-size=\"12\" font-weight=\"600\" text-anchor=\"middle\" dominant-baseline=\"central\">2<"
        ));
        // Coordinates 0..8, four times each (top, bottom, left, right).
        let coords = &svg[svg.find("class=\"coord\"").unwrap()..];
        let coords = &coords[..coords.find("</g>").unwrap()];
        assert_eq!(coords.matches("<text").count(), 36);
        assert!(coords.contains(">8</text>"));
        assert!(!coords.contains(">9</text>"));
    }

    #[test]
    fn board_sizes_and_odd_records_draw() {
        let mut g = game("a", "b", 0, None);
        let empty = board_svg(&g);
        assert_eq!(empty.matches("class=\"stone ").count(), 0);
        assert!(!empty.contains("last-move"));
        g.board_size = 15;
        g.moves = (0..15)
            .map(|k| MoveRecord {
                x: k,
                y: 14 - k,
                color: if k % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                millis: 5,
            })
            .collect();
        let svg = board_svg(&g);
        assert_eq!(svg.matches("class=\"stone ").count(), 15);
        assert!(svg.contains(">14</text>"));
        assert!(svg.contains(&format!(
            "viewBox=\"0 0 {s} {s}\"",
            s = 14 * CELL + 2 * MARGIN
        )));
        // A size of 0 does not panic and still holds the stones.
        g.board_size = 0;
        assert_eq!(board_svg(&g).matches("class=\"stone ").count(), 15);
    }

    #[test]
    fn bye_draw_and_waiting_slots_render() {
        let b = three();
        let html = bracket_html(&b);
        assert_eq!(html.matches("class=\"round\"").count(), 2);
        assert_eq!(html.matches("class=\"series\"").count(), 3);
        assert_eq!(html.matches("<svg").count(), 1);
        assert!(!html.contains("id=\"champion\""));
        assert!(html.contains("No champion yet"));
        assert!(html.contains("1/2-1/2"));
        assert!(html.contains(">bye<"));
        assert!(html.contains(">\u{2014}<"));
        assert!(html.contains("in progress"));
        // Only alpha's bye is decided.
        assert_eq!(html.matches("<div class=\"entrant won\">").count(), 1);
    }

    #[test]
    fn round_names() {
        assert_eq!(round_name(1, 1), "Final");
        assert_eq!(round_name(1, 2), "Semi-final");
        assert_eq!(round_name(2, 2), "Final");
        assert_eq!(round_name(1, 3), "Quarter-final");
        assert_eq!(round_name(1, 4), "Round 1");
        assert_eq!(round_name(4, 4), "Final");
    }

    #[test]
    fn empty_bracket_renders() {
        let b = Bracket {
            title: String::new(),
            game: "gomoku".to_string(),
            entrants: vec![],
            rounds: vec![],
            champion: None,
        };
        let html = bracket_html(&b);
        assert!(html.contains("Gomoku bracket"));
        assert!(html.contains("class=\"bracket\""));
        assert_eq!(html.matches("class=\"round\"").count(), 0);
    }

    /// Writes a sample page to /tmp/report_sample.html to look at in a browser:
    /// `cargo test --release --lib arena::report -- --ignored`.
    #[test]
    #[ignore]
    fn write_sample_report() {
        let names = [
            "stonebrain-mcts",
            "greedy",
            "random",
            "alice's bot",
            "<unnamed>",
            "bob & carol",
            "first-legal",
        ];
        let entrants: Vec<Entrant> = names
            .iter()
            .enumerate()
            .map(|(i, n)| entrant(n, i as u32 + 1))
            .collect();
        let label = |i: usize| entrants[i].name.clone();
        let series = |round: usize, slot: usize, a: usize, b: Option<usize>, wins: [u32; 2]| {
            let mut games = Vec::new();
            if let Some(b) = b {
                for k in 0..(wins[0] + wins[1]) as usize {
                    let a_black = k % 2 == 0;
                    let (bk, wt) = if a_black { (a, b) } else { (b, a) };
                    let a_won = k < wins[0] as usize;
                    let black_won = a_won == a_black;
                    let winner = Some(if black_won {
                        Color::Black
                    } else {
                        Color::White
                    });
                    let mut g = game(&label(bk), &label(wt), 9 + (k * 3 + slot) % 6, winner);
                    g.opening = Some(k);
                    games.push(g);
                }
            }
            let winner = match b {
                None => Some(a),
                Some(_) if wins[0] >= 2 => Some(a),
                Some(b2) if wins[1] >= 2 => Some(b2),
                Some(_) => None,
            };
            Series {
                round,
                slot,
                a: Some(a),
                b,
                best_of: 3,
                games,
                wins,
                winner,
            }
        };
        let r1 = vec![
            series(1, 0, 0, None, [0, 0]),
            series(1, 1, 3, Some(4), [2, 1]),
            series(1, 2, 2, Some(5), [0, 2]),
            series(1, 3, 1, Some(6), [2, 0]),
        ];
        let r2 = vec![series(2, 0, 0, Some(3), [2, 0]), {
            let mut s = series(2, 1, 5, Some(1), [1, 2]);
            s.games.push(game(&label(5), &label(1), 14, None));
            s
        }];
        let mut fin = series(3, 0, 0, Some(1), [2, 1]);
        let mut big = game(&label(0), &label(1), 0, Some(Color::Black));
        big.board_size = 9;
        // A long game fills most of the board, to check that labels up to two digits fit.
        let mut k = 0;
        for y in 0..9 {
            for x in 0..9 {
                if (x + 2 * y) % 5 != 0 {
                    big.moves.push(MoveRecord {
                        x,
                        y,
                        color: if k % 2 == 0 {
                            Color::Black
                        } else {
                            Color::White
                        },
                        millis: 900,
                    });
                    k += 1;
                }
            }
        }
        big.time_used_ms = [29_700, 28_800];
        big.reason = EndReason::Timeout(None);
        big.winner = Some(Color::Black);
        fin.games.push(big);
        fin.wins = [3, 1];
        fin.best_of = 5;
        let b = Bracket {
            title: "Spring NoGo class tournament".to_string(),
            game: "nogo".to_string(),
            entrants,
            rounds: vec![r1, r2, vec![fin]],
            champion: Some(0),
        };
        std::fs::write("/tmp/report_sample.html", bracket_html(&b)).unwrap();
    }
}
