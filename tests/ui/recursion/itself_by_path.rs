mod walker {
    #[ballot::kernel]
    pub fn walk(x: u32) -> u32 {
        if x == 0 {
            return 0;
        }
        let rest: u32 = crate::walker::walk(x - 1);
        rest
    }
}

fn main() {}
