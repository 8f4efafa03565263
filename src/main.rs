fn main() {
    println!("z3 {}", epipen::z3_version());
}
