//! The search tree that the searches which keep their nodes (A*, greedy best-first, BFS)
//! share: every node they create lives in one vector, linked to its parent by index with the
//! move that made it, so a path is rebuilt by following the links back from the node that
//! reached the goal. What else a node holds (costs, the heuristic's node, flags) is the
//! search's own, in `data`. IDA* and IDDFS keep only the current path and do not use it.

use crate::board::Move;
use crate::solution::Solution;
use crate::state::State;

/// A node's place in its [`Tree`]: its index in the node vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NodeId(u32);

impl NodeId {
    /// The root: the start, made by no move.
    pub(crate) const ROOT: NodeId = NodeId(0);

    /// The id a heap entry carries in its low 32 bits.
    pub(crate) fn from_bits(bits: u32) -> NodeId {
        NodeId(bits)
    }

    /// The id as the low 32 bits of a heap entry.
    pub(crate) fn bits(self) -> u32 {
        self.0
    }
}

/// The parent of the root, which has none.
const NO_PARENT: u32 = u32::MAX;

/// One node: its state, how it was reached, and the search's own `data`.
pub(crate) struct Node<T> {
    pub(crate) state: State,
    parent: u32,
    /// The move from the parent (meaningless at the root).
    mv: Move,
    pub(crate) data: T,
}

/// Every node a search created, the root first.
pub(crate) struct Tree<T> {
    nodes: Vec<Node<T>>,
}

impl<T> Tree<T> {
    /// A tree holding only the root, `start`.
    pub(crate) fn new(start: State, data: T) -> Tree<T> {
        Tree {
            nodes: vec![Node {
                state: start,
                parent: NO_PARENT,
                mv: Move::Up,
                data,
            }],
        }
    }

    /// Adds the node that `mv` reaches from `parent`, `state`, and returns its id.
    ///
    /// # Panics
    /// With 2^32 - 1 nodes already (no search gets near: its memory runs out first, and the
    /// default limits stop at 10 million).
    pub(crate) fn push(&mut self, parent: NodeId, mv: Move, state: State, data: T) -> NodeId {
        let id = u32::try_from(self.nodes.len())
            .ok()
            .filter(|&id| id != NO_PARENT)
            .expect("fewer than 2^32 - 1 nodes");
        self.nodes.push(Node {
            state,
            parent: parent.0,
            mv,
            data,
        });
        NodeId(id)
    }

    /// The number of nodes.
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    pub(crate) fn node(&self, id: NodeId) -> &Node<T> {
        &self.nodes[id.0 as usize]
    }

    pub(crate) fn node_mut(&mut self, id: NodeId) -> &mut Node<T> {
        &mut self.nodes[id.0 as usize]
    }

    /// The moves out of `id`'s state, in `U D L R` order, with the states they reach: every
    /// move that stays on the board except the one that undoes the move that made `id` (its
    /// parent is already in the tree). Owned, so the caller may add nodes while it walks them.
    pub(crate) fn children(&self, id: NodeId) -> Children {
        let node = self.node(id);
        Children {
            state: node.state,
            back: (node.parent != NO_PARENT).then(|| node.mv.inverse()),
            next: 0,
        }
    }

    /// The path from the root to `id`: the moves on the parent links back from `id`,
    /// replayed from the root's state.
    pub(crate) fn path(&self, start: &State, id: NodeId) -> Solution {
        debug_assert_eq!(*start, self.nodes[0].state);
        let mut moves = Vec::new();
        let mut node = self.node(id);
        while node.parent != NO_PARENT {
            moves.push(node.mv);
            node = &self.nodes[node.parent as usize];
        }
        moves.reverse();
        Solution::from_moves(*start, moves).expect("moves recorded by a search are legal")
    }
}

/// The moves out of one node's state ([`Tree::children`]).
pub(crate) struct Children {
    state: State,
    back: Option<Move>,
    next: usize,
}

impl Iterator for Children {
    type Item = (Move, State);

    fn next(&mut self) -> Option<(Move, State)> {
        while let Some(&mv) = Move::ALL.get(self.next) {
            self.next += 1;
            if Some(mv) == self.back {
                continue;
            }
            if let Some(next) = self.state.apply(mv) {
                return Some((mv, next));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_leave_out_the_move_back_and_the_path_replays_the_links() {
        let start: State = "123456780".parse().unwrap();
        let mut tree = Tree::new(start, ());
        // The root has every move on the board: the blank in a corner has two.
        let root: Vec<Move> = tree.children(NodeId::ROOT).map(|(mv, _)| mv).collect();
        assert_eq!(root, [Move::Up, Move::Left]);
        let up = start.apply(Move::Up).unwrap();
        let a = tree.push(NodeId::ROOT, Move::Up, up, ());
        // From the middle of the right column: down (back) is left out.
        let from_a: Vec<(Move, State)> = tree.children(a).collect();
        assert_eq!(
            from_a.iter().map(|&(mv, _)| mv).collect::<Vec<_>>(),
            [Move::Up, Move::Left]
        );
        let (mv, left) = from_a[1];
        let b = tree.push(a, mv, left, ());
        assert_eq!(tree.len(), 3);
        let path = tree.path(&start, b);
        assert_eq!(path.moves_string(), "UL");
        assert_eq!(path.end(), tree.node(b).state);
        assert_eq!(tree.path(&start, NodeId::ROOT).len(), 0);
    }
}
