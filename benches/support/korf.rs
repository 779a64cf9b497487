//! Korf's 100 15-puzzles (data/korf100.txt), read the same way by every bench that uses them.

use npuzzle::{Board, State};

/// One instance: its number, start, published optimal length and Korf's 1985 node count.
#[derive(Clone, Copy)]
pub struct Korf {
    pub id: u32,
    pub start: State,
    pub optimal: usize,
    pub korf_nodes: u64,
}

/// Every instance, in file order (goal: the blank top-left, `0 1 2 ... 15`).
pub fn korf_instances() -> Vec<Korf> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/korf100.txt");
    let text = std::fs::read_to_string(path).expect("data/korf100.txt is committed");
    let board = Board::new(4, 4).expect("4x4 is supported");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<u64> = line
                .split_whitespace()
                .map(|x| x.parse().expect("numbers"))
                .collect();
            let tiles: Vec<u8> = f[1..17].iter().map(|&t| t as u8).collect();
            Korf {
                id: f[0] as u32,
                start: State::from_tiles(board, &tiles).expect("valid instance"),
                optimal: f[17] as usize,
                korf_nodes: f[19],
            }
        })
        .collect()
}
