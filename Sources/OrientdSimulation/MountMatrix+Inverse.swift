import OrientdCore

extension MountMatrix {
    /// M⁻¹ by the adjugate, or nil when M is singular: the simulator knows the corrected
    /// reading and must write the raw one, raw = M⁻¹ · corrected. For the rotations real
    /// mountings are, this is the transpose.
    var inverse: MountMatrix? {
        let det = determinant
        guard abs(det) > 1e-9 else { return nil }
        // Columns of the inverse are the cross products of pairs of rows, over det.
        let c0 = row1.cross(row2) / det
        let c1 = row2.cross(row0) / det
        let c2 = row0.cross(row1) / det
        return MountMatrix(
            Vector3(c0.x, c1.x, c2.x),
            Vector3(c0.y, c1.y, c2.y),
            Vector3(c0.z, c1.z, c2.z))
    }
}
