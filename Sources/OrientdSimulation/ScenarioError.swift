import OrientdCore

/// A mistake in a scenario file, located by file and line like any other input problem.
public typealias ScenarioError = InputIssue
