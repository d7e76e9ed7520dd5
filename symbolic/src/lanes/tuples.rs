// The `Lanes` impls of pairs and triples as `tuple_impl` writes them (the
// impls up to a module's largest tuple are written there, not read from a
// file): compiled with the support files in `lanes::check`, whose test
// compares them with `tuple_impl`'s tokens.

use super::lanes::{Lanes, L};

impl<A: Lanes, B: Lanes> Lanes for (A, B) {
    type State = (A::State, B::State);
    fn gather(states: &[Self::State; L]) -> Self {
        (
            A::gather(&core::array::from_fn(|k| states[k].0)),
            B::gather(&core::array::from_fn(|k| states[k].1)),
        )
    }
    fn lane(&self, k: usize) -> Self::State {
        (self.0.lane(k), self.1.lane(k))
    }
    fn write_lane(&self, k: usize, state: &mut Self::State) {
        self.0.write_lane(k, &mut state.0);
        self.1.write_lane(k, &mut state.1);
    }
    fn zero() -> Self {
        (A::zero(), B::zero())
    }
    #[inline(always)]
    fn write_lanes(&self, mut states: [&mut Self::State; L]) {
        self.0.write_lanes(states.each_mut().map(|s| &mut s.0));
        self.1.write_lanes(states.each_mut().map(|s| &mut s.1));
    }
}

impl<A: Lanes, B: Lanes, C: Lanes> Lanes for (A, B, C) {
    type State = (A::State, B::State, C::State);
    fn gather(states: &[Self::State; L]) -> Self {
        (
            A::gather(&core::array::from_fn(|k| states[k].0)),
            B::gather(&core::array::from_fn(|k| states[k].1)),
            C::gather(&core::array::from_fn(|k| states[k].2)),
        )
    }
    fn lane(&self, k: usize) -> Self::State {
        (self.0.lane(k), self.1.lane(k), self.2.lane(k))
    }
    fn write_lane(&self, k: usize, state: &mut Self::State) {
        self.0.write_lane(k, &mut state.0);
        self.1.write_lane(k, &mut state.1);
        self.2.write_lane(k, &mut state.2);
    }
    fn zero() -> Self {
        (A::zero(), B::zero(), C::zero())
    }
    #[inline(always)]
    fn write_lanes(&self, mut states: [&mut Self::State; L]) {
        self.0.write_lanes(states.each_mut().map(|s| &mut s.0));
        self.1.write_lanes(states.each_mut().map(|s| &mut s.1));
        self.2.write_lanes(states.each_mut().map(|s| &mut s.2));
    }
}
