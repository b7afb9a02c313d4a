use kata::twice;

#[test]
fn doubles_a_number() {
    assert_eq!(twice(2), 4);
}
