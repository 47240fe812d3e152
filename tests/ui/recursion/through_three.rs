mod first {
    #[ballot::kernel]
    pub fn a(x: u32) -> u32 {
        let r: u32 = super::second::b(x);
        r
    }
}

mod second {
    #[ballot::kernel]
    pub fn b(x: u32) -> u32 {
        let r: u32 = c(x);
        r
    }

    #[ballot::kernel]
    pub fn c(x: u32) -> u32 {
        let r: u32 = crate::first::a(x);
        r
    }
}

fn main() {}
