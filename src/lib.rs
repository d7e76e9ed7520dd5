//! rbdgen
