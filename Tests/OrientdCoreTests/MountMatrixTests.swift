import Testing

@testable import OrientdCore

@Suite("Mount matrix")
struct MountMatrixTests {
    @Test("parses the hwdb syntax, with any spacing and a trailing newline or NUL")
    func parsesHwdbSyntax() throws {
        let m = try MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 1")
        #expect(m == MountMatrix(Vector3(0, -1, 0), Vector3(-1, 0, 0), Vector3(0, 0, 1)))
        #expect(try MountMatrix(parsing: "0,-1,0;-1,0,0;0,0,1\n\0") == m)
        #expect(try MountMatrix(parsing: "  0 , -1 , 0 ;-1, 0,0 ; 0, 0, 1  ") == m)
        #expect(try MountMatrix(parsing: "0.5, 0, 0; 0, 1e0, 0; 0, 0, -1").row0.x == 0.5)
    }

    @Test("applies corrected = M · raw, row i giving axis i")
    func appliesRowsToAxes() throws {
        let m = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        // Row 1 (0,1,0) makes corrected x = raw y; row 2 makes corrected y = -raw x.
        #expect(m.apply(Vector3(1, 2, 3)) == Vector3(2, -1, 3))
        #expect(MountMatrix.identity.apply(Vector3(1, 2, 3)) == Vector3(1, 2, 3))
    }

    @Test(
        "names the problem in a matrix that does not parse",
        arguments: [
            ("1, 0, 0; 0, 1, 0", "2 row(s); expected 3"),
            ("1, 0, 0; 0, 1, 0; 0, 0", "row 3 of mount matrix"),
            ("1, 0, 0, 0; 0, 1, 0; 0, 0, 1", "4 number(s)"),
            ("1, 0, x; 0, 1, 0; 0, 0, 1", "'x' is not a number"),
            ("1, 0, inf; 0, 1, 0; 0, 0, 1", "'inf' is not finite"),
            ("", "empty mount matrix"),
        ])
    func rejectsMalformed(text: String, expected: String) {
        #expect {
            try MountMatrix(parsing: text)
        } throws: { error in
            "\(error)".contains(expected)
        }
    }

    @Test("judges odd matrices: zero rows are fatal, singular and skewed ones are flagged")
    func findings() throws {
        #expect(MountMatrix.identity.findings.isEmpty)
        #expect(try MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, -1").findings.isEmpty)  // a rotation
        // A singular entry of the kind systemd's hwdb really has: z copies x.
        #expect(try MountMatrix(parsing: "1, 0, 0; 0, -1, 0; 1, 0, 0").findings == [.singular])
        let zero = try MountMatrix(parsing: "1, 0, 0; 0, 0, 0; 0, 0, 1").findings
        #expect(zero == [.zeroRow(1)])
        #expect(zero.first?.isFatal == true)
        // Mirrors are the common case in systemd's hwdb (left-handed parts): not odd.
        #expect(try MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 1").findings.isEmpty)
        #expect(try MountMatrix(parsing: "2, 0, 0; 0, 2, 0; 0, 0, 2").findings == [.notOrthonormal])
        #expect(MountMatrix.Finding.zeroRow(1).description.contains("axis y would always read 0"))
    }

    @Test("prints back in the syntax it reads")
    func roundTrip() throws {
        let m = try MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 1")
        #expect(m.description == "0, -1, 0; -1, 0, 0; 0, 0, 1")
        #expect(try MountMatrix(parsing: m.description) == m)
        #expect(m.transposed.transposed == m)
    }
}
