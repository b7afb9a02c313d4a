use kata::score;

#[test]
fn gutter_game() {
    assert_eq!(score(&[0; 20]), 0);
}

#[test]
fn all_ones() {
    assert_eq!(score(&[1; 20]), 20);
}

#[test]
fn one_spare() {
    let mut rolls = vec![5, 5, 3];
    rolls.extend([0; 17]);
    assert_eq!(score(&rolls), 16);
}

#[test]
fn one_strike() {
    let mut rolls = vec![10, 3, 4];
    rolls.extend([0; 16]);
    assert_eq!(score(&rolls), 24);
}

#[test]
fn perfect_game() {
    assert_eq!(score(&[10; 12]), 300);
}

#[test]
fn all_spares() {
    assert_eq!(score(&[5; 21]), 150);
}
