use super::super::tests::{find_on, labelled};
use super::super::{MatchKind, Words};

#[test]
fn words_single_out_or_share() {
    let reports = labelled(&["Sales Report Q1", "Sales Report Q2", "Sales Report Q3", "Budget Overview"]);
    let table: &[(&str, Words)] = &[
        ("q2", Words::Unique { entry: 1, kind: MatchKind::Shorthand }),
        ("the budget one", Words::Unique { entry: 3, kind: MatchKind::Shorthand }),
        ("overview budget", Words::Unique { entry: 3, kind: MatchKind::Partial }),
        ("sales reprot q3", Words::Unique { entry: 2, kind: MatchKind::Typo }),
        ("salse report q1", Words::Unique { entry: 0, kind: MatchKind::Typo }),
        ("sales report", Words::Shared { entries: vec![0, 1, 2], typo: false }),
        ("q1 or q3", Words::Split(vec![0, 2])),
        ("weather forecast", Words::Unexplained),
    ];
    for (input, want) in table {
        let (m, _) = find_on(input, &reports, &[]);
        assert_eq!(&m.reading.words, want, "input {input:?}");
    }
    // A typo near two different words is never a winner.
    let contacts = labelled(&["John Smith", "Jon Snow"]);
    let (m, _) = find_on("jhon", &contacts, &[]);
    assert_eq!(m.reading.words, Words::Shared { entries: vec![0, 1], typo: true });
}
